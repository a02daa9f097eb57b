//! House rounds merged on the group committer's lane (issue 23, "the wallet's real path").
//!
//! A paid one-step round (dice, slots, roulette, plinko) covered by no tournament or jackpot and
//! of a player without loss or wager limits is queued as data ([`QueuedRound`], a [`Batchable`] kind), not as a
//! function: the lane runs a run of such neighbours together in a handful of statements whatever
//! their number — a read of every round's session, seed and loyalty rate (the players' `users`
//! rows locked by it on PostgreSQL), the draws in memory, one [`ledger::post_fresh`] call for
//! every bet and win, one statement set for the rounds, their draws, wallet records and seeds'
//! nonces ([`wallet::record_house_rounds`]'s, sent after the post by
//! [`ledger::post_fresh_then`], on SQLite in its round trip) and one for the loyalty points
//! ([`loyalty::accrue_many`]). Before, each round was five statements of its own, each a hop to
//! SQLite's driver thread or a round trip to PostgreSQL.
//!
//! The checks are the general path's ([`super::round::play_in`] with [`wallet::house_round_in`]),
//! in the same order with the same answers; a refused round writes nothing, so the run goes on
//! without it (what [`Batchable::run_many`] requires). A player who appears twice in a run plays
//! from the balance and nonce the first round left, tracked in memory: every movement of a
//! player's money runs on their lane, so nothing else moves them meanwhile. A round whose read
//! shows it no longer fits (a bonus started wagering, a tournament began, limits were set, no
//! seed pair yet) writes nothing and answers `None`: the caller then plays it on the general path.
//!
//! A player wagering a bonus fits too when the round's stake is all main money (the spending rule
//! spends main first, so that is the usual case) and settles no bonus: the run reads those
//! players' wagering bonuses and their games' contributions (two statements, only when there are
//! such players), plans each stake in memory with the general path's rule ([`bonus::plan`]) from
//! the bonuses as the run's earlier rounds left them, counts the wagering in one statement
//! ([`bonus::record_wagered`]) and keeps it on the bet's record as the general path does. A stake
//! that would take bonus money, a refusal of the plan (the maximum bet) and a round after which a
//! bonus would complete or be forfeited ([`bonus::settles_after`]) take the general path, which
//! writes the bonus stakes, splits the win and settles.

use super::round::{Play, Played, RoundRequest, bet_refusal, is_free_spin, paid_bet};
use super::*;
use crate::db::group::Batchable;
use crate::features::bonuses::engine::{self as bonus, Stake};
use crate::features::loyalty;
use crate::features::tournaments::competition;
use crate::features::winners;
use crate::ledger::{self, Entry, LedgerError};
use std::collections::HashMap;
use std::sync::Arc;
use wallet::HouseRead;

/// A round queued on its player's lane ([`crate::db::Db::submit`]); its result is the round's
/// answer, a refusal, or `None` when it must take the general path.
pub(super) struct QueuedRound {
    pub(super) state: AppState,
    pub(super) sysname: String,
    pub(super) request: Arc<RoundRequest>,
    /// The request's token's [`wallet::token_hash`], made by the caller.
    pub(super) token_hash: String,
    /// The session's player as read before queuing (a session's player never changes), whose
    /// `users` row the run locks on PostgreSQL; 0 on SQLite, whose one lane needs no player and
    /// whose transaction holds the write lock.
    pub(super) user_id: i64,
}

impl QueuedRound {
    /// Whether a round of `session` may be queued as a [`QueuedRound`] (read before queuing;
    /// checked again in the lane's transaction).
    pub(super) fn fits(session: &wallet::GameSession, sysname: &str, request: &RoundRequest) -> bool {
        let real = session.mode == "real";
        sysname != "mines" && !is_free_spin(request) && !(real && (session.competing > 0 || session.play_limits != 0))
    }
}

impl Batchable for QueuedRound {
    type Output = Option<Played>;
    type Error = HouseError;

    fn run_one<'a>(&'a self, conn: &'a mut AnyConnection) -> BoxFuture<'a, Result<Option<Played>, HouseError>> {
        Box::pin(async move {
            let mut results = play_many(conn, &[self]).await?;
            results.pop().unwrap_or(Err(HouseError::Internal))
        })
    }

    fn run_many<'a>(
        conn: &'a mut AnyConnection,
        items: &'a [&'a QueuedRound],
    ) -> BoxFuture<'a, Result<Vec<Result<Option<Played>, HouseError>>, HouseError>> {
        Box::pin(play_many(conn, items))
    }
}

/// What the run's earlier rounds left: the balances sessions play from — by (player, demo,
/// currency), so a player's demo and real rounds, or two currencies, never share one — and each
/// player's seed pair's last nonce (one active pair per player, whatever the mode).
#[derive(Default)]
struct Tallies {
    held: HashMap<wallet::Held, i64>,
    nonces: HashMap<i64, i64>,
    /// The wagering bonuses of the run's real players who have any, as the run's earlier rounds
    /// left them ([`bonus::apply_stake`]), and the contribution of each of their games.
    bonuses: HashMap<i64, Vec<bonus::Wagering>>,
    contributions: HashMap<String, i64>,
}

impl Tallies {
    /// The tallies of a run whose sessions are `reads`: the wagering bonuses of its real players
    /// who have any, read once (nothing is read for a run without such players).
    async fn of(conn: &mut AnyConnection, reads: &[HouseRead]) -> Result<Tallies, sqlx::Error> {
        let wagering = || reads.iter().map(|r| &r.session).filter(|s| s.mode == "real" && s.wagering > 0);
        let mut users: Vec<i64> = wagering().map(|s| s.user_id).collect();
        if users.is_empty() {
            return Ok(Tallies::default());
        }
        users.sort_unstable();
        users.dedup();
        let mut games: Vec<&str> = wagering().map(|s| s.sysname.as_str()).collect();
        games.sort_unstable();
        games.dedup();
        Ok(Tallies {
            bonuses: bonus::wagering_of(conn, &users).await?,
            contributions: bonus::contributions(conn, &games).await?,
            ..Tallies::default()
        })
    }
}

/// A round that passed its checks, waiting for the run's writes.
struct Accepted {
    /// The round's session read (an index into the run's reads).
    read: usize,
    user_id: i64,
    real: bool,
    currency: Currency,
    bet: i64,
    win: i64,
    points: i64,
    bet_key: String,
    win_key: String,
    /// The bonus whose wagering the bet counts towards, and how much.
    wagered: Option<(i64, i64)>,
    row: wallet::HouseRoundRow,
}

/// Every round of `items` (one lane's run): one result per item, in order. An `Err` of the whole
/// call means the database failed; the committer then rolls the batch back and sets the first
/// item aside.
async fn play_many(
    conn: &mut AnyConnection,
    items: &[&QueuedRound],
) -> Result<Vec<Result<Option<Played>, HouseError>>, HouseError> {
    let Some(first) = items.first() else { return Ok(Vec::new()) };
    let rules = Rules::of(&first.state);
    let hashes: Vec<&str> = items.iter().map(|i| i.token_hash.as_str()).collect();
    let reads = wallet::read_house_rounds(conn, &hashes).await?;
    let by_token: HashMap<&str, usize> = reads.iter().enumerate().map(|(i, r)| (r.token_hash.as_str(), i)).collect();
    let now = now_ms();
    let mut tallies = Tallies::of(conn, &reads).await?;
    let mut results: Vec<Result<Option<Played>, HouseError>> = Vec::with_capacity(items.len());
    let mut accepted: Vec<Accepted> = Vec::with_capacity(items.len());
    for item in items {
        let read = by_token.get(item.token_hash.as_str()).copied();
        match draw(item, read.and_then(|i| reads.get(i)), &rules, now, &mut tallies) {
            Ok(Drawn::Played(round, answer)) => {
                accepted.push(Accepted { read: read.unwrap_or_default(), ..*round });
                results.push(Ok(Some(answer)));
            }
            Ok(Drawn::Reroute) => results.push(Ok(None)),
            Err(refusal) => results.push(Err(refusal)),
        }
    }
    if accepted.is_empty() {
        return Ok(results);
    }
    // The money: every bet and win in one call, each checked as the general path checks it. The
    // funds were checked above under the lane's order, so a refusal here is a failure of the call.
    let mut entries: Vec<Entry<'_>> = Vec::with_capacity(2 * accepted.len());
    for round in &accepted {
        let Some(HouseRead { session, .. }) = reads.get(round.read) else { continue };
        entries.extend(wallet::round_entries(
            session,
            round.currency,
            &round.bet_key,
            round.bet,
            &round.win_key,
            round.win,
        ));
    }
    // Their keys are the rounds' new time-ordered ids: the set-based post, whose refusal (none is
    // expected) fails the whole run.
    // The rounds' rows go with the money (on SQLite in one round trip).
    let rows: Vec<&wallet::HouseRoundRow> = accepted.iter().map(|r| &r.row).collect();
    match ledger::post_fresh_then(conn, &entries, &wallet::house_rounds_then(&wallet::house_round_lists(&rows))).await {
        Ok(()) => {}
        Err(LedgerError::Db(e)) => return Err(HouseError::internal(e)),
        Err(refused) => {
            return Err(HouseError::internal(format!("a merged house round's movement was refused: {refused}")));
        }
    }
    // The wagering the bets counted.
    bonus::record_wagered(conn, accepted.iter().filter_map(|r| r.wagered)).await?;
    // Loyalty: the points of every real-money round in one upsert.
    let earned: Vec<(i64, i64)> = accepted.iter().map(|r| (r.user_id, r.points)).collect();
    loyalty::accrue_many(conn, &rules, &earned).await?;
    // A big win is listed on /winners (rare: it needs the round's row id).
    for round in accepted.iter().filter(|r| r.real && winners::is_big(r.bet, r.win, rules.big_win)) {
        let Some(HouseRead { session, .. }) = reads.get(round.read) else { continue };
        let round_id = wallet::house_round_id(conn, &round.row.round).await?;
        let won = competition::Win {
            key: &round.win_key,
            round_id,
            amount: round.win,
            round_bet: round.bet,
            round_win: round.win,
        };
        winners::on_win(conn, session, round.currency, &won, rules.big_win).await?;
    }
    Ok(results)
}

enum Drawn {
    Played(Box<Accepted>, Played),
    Reroute,
}

/// One round's checks and draw, from its session's read and what the run's earlier rounds of the
/// same player left: the general path's checks in its order.
fn draw(
    item: &QueuedRound,
    read: Option<&HouseRead>,
    rules: &Rules,
    now: i64,
    tallies: &mut Tallies,
) -> Result<Drawn, HouseError> {
    let request = &item.request;
    // `live_session_locked`'s checks.
    let Some(read) = read.filter(|r| r.session.sysname == item.sysname && r.session.provider == "house") else {
        return Err(HouseError::InvalidToken);
    };
    let session = &read.session;
    if session.expires_at < now {
        return Err(HouseError::TokenExpired);
    }
    let currency = Currency::parse(&session.currency).ok_or_else(|| HouseError::internal("bad currency"))?;
    // Only what fits the merged path; anything else (also a player's first round, which makes
    // the seed pair) takes the general one.
    let (Some(seed_id), Some(server_seed), Some(server_seed_hash), Some(client_seed), Some(nonce)) = (
        read.seed_id,
        read.server_seed.as_ref(),
        read.server_seed_hash.as_ref(),
        read.client_seed.as_ref(),
        read.nonce,
    ) else {
        return Ok(Drawn::Reroute);
    };
    // On PostgreSQL only on the lane of the player whose row the run locked.
    if !QueuedRound::fits(session, &item.sysname, request) || (item.user_id != 0 && item.user_id != session.user_id) {
        return Ok(Drawn::Reroute);
    }
    // The refusals in the order `round::play` checks them before queuing: a time-out or
    // self-exclusion, then the bet, then the funds.
    let real = session.mode == "real";
    if real && let Some(exclusion) = session.exclusion() {
        return Err(HouseError::Excluded { until: exclusion.until });
    }
    let (bet, game) = paid_bet(&item.sysname, request, currency)?;
    if matches!(game, Play::Mines(_)) {
        return Ok(Drawn::Reroute);
    }
    let limits = limits(&item.sysname).ok_or(HouseError::UnknownGame)?;
    // Time-ordered (UUIDv7): the round's keys (`game_rounds`, `wallet_transactions`, the
    // ledger's idempotency keys) then go in at the end of their indexes, a few pages per batch,
    // where random ids dirtied a page of each index per round.
    let round_id = uuid::Uuid::now_v7().to_string();
    let bet_request = wallet_request(&round_id, session, &request.token, bet);
    // `house_round_in`'s checks: the session as the wallet sees it (a player with limits took the
    // general path above); the win's once the draw has made it.
    wallet::check_house_bet(session, &bet_request).map_err(|e| bet_refusal(e, currency))?;
    let real_or_fun = (session.user_id, !real, currency);
    let held = *tallies.held.entry(real_or_fun).or_insert(session.held);
    // A player wagering a bonus: the stake planned by the general path's rule from the bonuses as
    // the run's earlier rounds left them. Only an all-main stake that settles no bonus fits here.
    let stake = if real && session.wagering > 0 {
        let bonuses = tallies.bonuses.get(&session.user_id).map_or(&[][..], Vec::as_slice);
        let percent = tallies.contributions.get(&item.sysname).copied().unwrap_or(100);
        match bonus::plan(bonuses, percent, rules, currency, &item.sysname, bet.minor(), held) {
            Ok(stake) if stake.from_bonuses.is_empty() && !bonus::settles_after(bonuses, &stake) => stake,
            _ => return Ok(Drawn::Reroute),
        }
    } else {
        Stake::all_main(bet.minor())
    };
    if held < bet.minor() {
        return Err(bet_refusal(wallet::WalletError::Status("RS_ERROR_NOT_ENOUGH_MONEY"), currency));
    }
    let nonce = tallies.nonces.get(&session.user_id).copied().unwrap_or(nonce) + 1;
    let floats = fair::floats(server_seed, client_seed, nonce, game.floats());
    let (raw_win, mut outcome) = game.resolve(&floats, bet.minor(), currency);
    let win = limits.cap(bet.minor(), raw_win, currency);
    if i128::from(win) < raw_win {
        outcome["capped"] = json!(true);
    }
    let win_request = settle_request(&round_id, session, &request.token, Money::from_minor(win, currency));
    wallet::check_house_win(&bet_request, &win_request).map_err(|e| bet_refusal(e, currency))?;
    tallies.held.insert(real_or_fun, held - bet.minor() + win);
    tallies.nonces.insert(session.user_id, nonce);
    if let Some(bonuses) = tallies.bonuses.get_mut(&session.user_id) {
        bonus::apply_stake(bonuses, &stake);
    }
    // The balance a game is told: the bonus money spendable here besides (`wallet::balance_of`),
    // which an all-main stake leaves as it was.
    let after_bet = held - bet.minor() + stake.bonus_after;
    let after_win = after_bet + win;
    let points = if real { read.loyalty.points(bet.minor(), currency) } else { 0 };
    let row = wallet::HouseRoundRow::new(
        session,
        &bet_request,
        &win_request,
        (after_bet, after_win),
        (points, stake.wagered),
        now,
        (seed_id, nonce),
        (request.params.to_string(), outcome.to_string()),
    );
    let played = Played {
        round_id,
        outcome,
        bet,
        win,
        balance: after_win,
        currency,
        server_seed_hash: server_seed_hash.clone(),
        client_seed: client_seed.clone(),
        nonce,
    };
    let accepted = Accepted {
        read: 0,
        user_id: session.user_id,
        real,
        currency,
        bet: bet.minor(),
        win,
        points,
        bet_key: format!("wallet:house:{}", bet_request.transaction_uuid),
        win_key: format!("wallet:house:{}", win_request.transaction_uuid),
        wagered: stake.wagered,
        row,
    };
    Ok(Drawn::Played(Box::new(accepted), played))
}
