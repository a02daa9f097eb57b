//! An aggregator's bets and wins merged on the group committer's lane (issue 23, "the wallet's
//! real path", the same design as the house rounds' `house::batch`).
//!
//! Every signed `bet` and `win` is queued as data ([`QueuedCall`], a [`Batchable`] kind): the
//! lane runs a run of such neighbours, of any players and providers, bets and wins mixed, in a
//! handful of statements whatever their number — a read of every call's session with its loyalty
//! terms (locking the players' `users` rows on PostgreSQL), a read of every call's earlier
//! answer and round, the checks and the balances in memory, one [`ledger::post_fresh`] for every
//! movement with one statement set for the rounds and the wallet records after it
//! ([`ledger::post_fresh_then`], on SQLite in the post's round trip), and one for the loyalty
//! points. Before, each call was a job of six to nine statements of its own.
//!
//! The checks are [`super::bet`]'s and [`super::win`]'s, in their order with their answers:
//!
//! - a transaction id seen before answers its first answer (or `RS_ERROR_DUPLICATE_TRANSACTION`
//!   when its fields differ, or when it was another player's call) — including one first seen
//!   earlier in the same run, tracked in memory;
//! - then the session (unknown, expired for a bet, disabled, another provider's or currency);
//! - a bet: its fields, a time-out or self-exclusion, a round that is not open, then the funds;
//! - a win: its fields, then its round, which must exist (in the database or opened earlier in the
//!   run);
//! - a round of another session's player, mode or currency is not touched (`super`'s module docs):
//!   a bet into it is refused, a win into it finds no round.
//!
//! A refused call writes nothing, so the run goes on without it ([`Batchable::run_many`]). A
//! player who appears several times in a run plays from the balance their earlier calls left,
//! tracked in memory: every movement of a player's money runs on their lane.
//!
//! Only the calls whose money is all main (or fun) are merged: a session whose read holds its
//! balance (demo, or no wagering bonus: [`GameSession::held_balance`]) and, in real money,
//! covered by no tournament or jackpot and of a player without loss or wager limits; a win into a
//! round no bonus staked. Any other call writes nothing here and answers `None`, and the caller
//! runs it as a job of the general path. Rounds change by their totals' increments (as the general
//! path's statements do), so a round also touched from another lane keeps every amount.

use super::*;
use crate::db::group::Batchable;
use crate::ledger::LedgerError;
use futures::future::BoxFuture;
use std::collections::HashMap;

/// A signed bet or win queued on its player's lane ([`crate::db::Db::submit`]); its result is the
/// answer, a refusal, or `None` when it must take the general path.
pub(super) struct QueuedCall {
    pub(super) rules: Rules,
    pub(super) provider: String,
    /// A win (else a bet).
    pub(super) win: bool,
    pub(super) request: WalletRequest,
    /// The request's token's [`token_hash`], made by the caller.
    pub(super) token_hash: String,
    /// The session's player as known before queuing (a session's player never changes), whose
    /// `users` row the run locks on PostgreSQL; 0 on SQLite, whose one lane needs no player and
    /// whose transaction holds the write lock.
    pub(super) user_id: i64,
}

impl QueuedCall {
    fn kind(&self) -> &'static str {
        if self.win { "win" } else { "bet" }
    }
}

impl Batchable for QueuedCall {
    type Output = Option<WalletResponse>;
    type Error = WalletError;

    fn run_one<'a>(
        &'a self,
        conn: &'a mut AnyConnection,
    ) -> BoxFuture<'a, Result<Option<WalletResponse>, WalletError>> {
        Box::pin(async move {
            let mut results = call_many(conn, &[self]).await?;
            results.pop().unwrap_or(Err(WalletError::Status("RS_ERROR_UNKNOWN")))
        })
    }

    fn run_many<'a>(
        conn: &'a mut AnyConnection,
        items: &'a [&'a QueuedCall],
    ) -> BoxFuture<'a, Result<Vec<Result<Option<WalletResponse>, WalletError>>, WalletError>> {
        Box::pin(call_many(conn, items))
    }
}

/// A session read for the merged calls, with its game's loyalty terms (read as the JSON array
/// `[[session…], token_hash, [loyalty…]]`, [`CALL_READ_SQLITE`], [`CALL_READ_POSTGRES`]).
#[derive(Deserialize)]
struct CallRead {
    session: GameSession,
    token_hash: String,
    loyalty: LoyaltyTerms,
}

/// What the database holds for one call: its transaction id's first answer and its round (read
/// as a JSON array of these fields in this order, [`CALL_READ_SQLITE`], [`CALL_READ_POSTGRES`]).
#[derive(Deserialize)]
struct Seen {
    idx: i64,
    seen_fingerprint: Option<String>,
    seen_response: Option<String>,
    /// The player whose round the earlier call was in.
    seen_user: Option<i64>,
    round_id: Option<i64>,
    round_status: Option<String>,
    round_bet: Option<i64>,
    round_win: Option<i64>,
    /// The round's owner: player, mode and currency.
    round_user: Option<i64>,
    round_mode: Option<String>,
    round_currency: Option<String>,
    /// The round's bonus stakes still standing (with any, a win is shared: the general path).
    bonus_stakes: i64,
}

/// [`read_calls`]'s session read, with its dialect's way of naming many tokens in `$1`.
macro_rules! call_read {
    ($tokens:literal, $tail:literal) => {
        session_query!(@ concat!(", s.token_hash", loyalty_terms!()), "", $tokens, $tail)
    };
}

/// [`read_calls`]'s read of the earlier answers and the rounds, one row per element of `$1`
/// (`[provider, transaction id, round]`), with its dialect's way of listing them (`j`) and of
/// looking each up by its unique key (`w`, `r`).
macro_rules! seen_read {
    ($index:literal, $from:literal) => {
        concat!(
            "SELECT ",
            $index,
            " AS idx, w.fingerprint AS seen_fingerprint, w.response AS seen_response, wr.user_id AS seen_user, \
             r.id AS round_id, r.status AS round_status, r.bet AS round_bet, r.win AS round_win, \
             r.user_id AS round_user, r.mode AS round_mode, r.currency AS round_currency, \
             CAST((SELECT COUNT(*) FROM bonus_stakes b WHERE b.round_id = r.id AND b.provider = r.provider \
               AND b.rolled_back = 0 AND b.staked > 0) AS BIGINT) AS bonus_stakes FROM ",
            $from
        )
    };
}

/// A [`CallRead`] as a JSON array (`[[session…], token_hash, [loyalty…]]`) from a row `x` of
/// [`call_read!`], with the dialect's array function (`json_array`, `json_build_array`).
macro_rules! call_array {
    ($array:literal) => {
        concat!($array, "(", session_array!($array), ", x.token_hash, ", loyalty_array!($array), ")")
    };
}

/// A [`Seen`] as a JSON array of its fields in their order, from a row `y` of [`seen_read!`], with
/// the dialect's array function.
macro_rules! seen_array {
    ($array:literal) => {
        concat!(
            $array,
            "(y.idx, y.seen_fingerprint, y.seen_response, y.seen_user, y.round_id, y.round_status, y.round_bet, \
             y.round_win, y.round_user, y.round_mode, y.round_currency, y.bonus_stakes)"
        )
    };
}

/// [`read_calls`] on SQLite: both reads in one statement of one row, each read's rows as one JSON
/// array of arrays (`$1` the token hashes, `$2` the time, `$3` the calls' list). Read row by row,
/// every value of the ~30 a call reads was copied out of SQLite, converted to the driver's
/// generic row and decoded on its own, and the rows crossed from the connection's thread in
/// channel-sized handoffs: about a tenth of the single writer's critical path under the
/// wallet's load (`perf`, 2026-11-28). The arrays' order is [`CallRead`]'s and [`Seen`]'s fields'.
const CALL_READ_SQLITE: &str = concat!(
    "SELECT (SELECT json_group_array(",
    call_array!("json_array"),
    ") FROM (",
    call_read!(" WHERE s.token_hash IN (SELECT value FROM json_each($1))", ""),
    ") x), (SELECT json_group_array(",
    seen_array!("json_array"),
    ") FROM (",
    // The earlier answers and rounds: the joins run from the list (parsed once into SQLite's
    // binary JSON, so reading an element's field does not parse its text again), by the unique
    // indexes.
    seen_read!(
        "CAST(j.key AS BIGINT)",
        "jsonb_each(jsonb($3)) j \
         LEFT JOIN wallet_transactions w ON w.provider = j.value ->> 0 AND w.transaction_uuid = j.value ->> 1 \
         LEFT JOIN game_rounds wr ON wr.id = w.round_id \
         LEFT JOIN game_rounds r ON r.provider = j.value ->> 0 AND r.round = j.value ->> 2"
    ),
    ") y)"
);

/// [`read_calls`] on PostgreSQL: both reads in one statement of one row, as on SQLite (one round
/// trip fewer per run: a run on a PostgreSQL lane was about seven round trips of about a
/// millisecond each under the wallet's load, 2026-11-28). The sessions are read first, in a
/// `WITH` query that locks their players' `users` rows in id order (`FOR UPDATE OF u`), as
/// [`read_house_rounds`]'s read does; the earlier answers and rounds are each looked up by a
/// lateral subquery with `LIMIT 1`, which the planner cannot turn into a join — as plain joins it
/// hashed all of `wallet_transactions` per run (`pg_stat_activity` during `make bench`: 493
/// pairs/s). Each read's rows come back as one JSON array of arrays, in [`CallRead`]'s and
/// [`Seen`]'s field order (`$1` the token hashes, `$2` the time, `$3` the calls' list).
const CALL_READ_POSTGRES: &str = concat!(
    "WITH x AS (",
    call_read!(
        " WHERE s.token_hash = ANY(ARRAY(SELECT jsonb_array_elements_text(CAST($1 AS JSONB))))",
        " ORDER BY u.id FOR UPDATE OF u"
    ),
    ") SELECT CAST(COALESCE((SELECT json_agg(",
    call_array!("json_build_array"),
    ") FROM x), '[]') AS TEXT), CAST(COALESCE((SELECT json_agg(",
    seen_array!("json_build_array"),
    ") FROM (",
    seen_read!(
        "CAST(j.n - 1 AS BIGINT)",
        "jsonb_array_elements(CAST($3 AS JSONB)) WITH ORDINALITY AS j(value, n) \
     LEFT JOIN LATERAL (SELECT x.fingerprint, x.response, x.round_id FROM wallet_transactions x \
       WHERE x.provider = j.value ->> 0 AND x.transaction_uuid = j.value ->> 1 LIMIT 1) w ON TRUE \
     LEFT JOIN LATERAL (SELECT x.user_id FROM game_rounds x WHERE x.id = w.round_id LIMIT 1) wr ON TRUE \
     LEFT JOIN LATERAL (SELECT x.id, x.provider, x.status, x.bet, x.win, x.user_id, x.mode, x.currency FROM game_rounds x \
       WHERE x.provider = j.value ->> 0 AND x.round = j.value ->> 2 LIMIT 1) r ON TRUE"
    ),
    ") y), '[]') AS TEXT)"
);

/// Every call's session (by token), earlier answer and round: one read of one row
/// ([`CALL_READ_SQLITE`], [`CALL_READ_POSTGRES`], which locks the players' `users` rows as
/// [`read_house_rounds`]'s does).
async fn read_calls(
    conn: &mut AnyConnection,
    items: &[&QueuedCall],
) -> Result<(Vec<CallRead>, Vec<Seen>), sqlx::Error> {
    let mut tokens: Vec<&str> = items.iter().map(|i| i.token_hash.as_str()).collect();
    tokens.sort_unstable();
    tokens.dedup();
    let tokens = serde_json::to_string(&tokens).unwrap_or_default();
    let elements: Vec<[&str; 3]> = items
        .iter()
        .map(|i| [i.provider.as_str(), i.request.transaction_uuid.as_str(), i.request.round.as_str()])
        .collect();
    let elements = serde_json::to_string(&elements).unwrap_or_default();
    let sql = if ledger::is_postgres(conn) { CALL_READ_POSTGRES } else { CALL_READ_SQLITE };
    let (sessions, seen): (String, String) =
        sqlx::query_as(sql).bind(tokens).bind(now_ms()).bind(elements).fetch_one(&mut *conn).await?;
    let decode = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
    Ok((serde_json::from_str(&sessions).map_err(decode)?, serde_json::from_str(&seen).map_err(decode)?))
}

/// A round as the run leaves it: its state when read (none: opened in this run) and what the run
/// adds to it.
struct RoundState {
    /// The row's id (none: opened by this run).
    id: Option<i64>,
    open: bool,
    bet: i64,
    win: i64,
    bonus_stakes: i64,
    /// Whose it is: player, mode, currency.
    owner: (i64, String, String),
    /// What this run adds.
    added_bet: i64,
    added_win: i64,
    /// Closed by this run.
    closes: bool,
    /// The session read of the bet that opened it (an index into the run's reads), for a round
    /// opened by this run.
    opened_by: Option<usize>,
}

/// A call that passed its checks, waiting for the run's writes.
struct Accepted {
    item: usize,
    /// The call's session read (an index into the run's reads).
    read: usize,
    currency: Currency,
    /// The movement's ledger key, minted for it ([`ledger_key`]) and kept on its wallet record.
    key: String,
    round: (String, String),
    /// For a win: the round's bet and win totals after it (the big-win listing's).
    totals: (i64, i64),
    points: i64,
    response: String,
    fingerprint: String,
}

/// The run's rounds, keyed by (provider, round).
type Rounds = HashMap<(String, String), RoundState>;

/// Every call of `items` (one lane's run): one result per item, in order. An `Err` of the whole
/// call means the database failed; the committer then rolls the batch back and sets the first
/// item aside.
async fn call_many(
    conn: &mut AnyConnection,
    items: &[&QueuedCall],
) -> Result<Vec<Result<Option<WalletResponse>, WalletError>>, WalletError> {
    let Some(first) = items.first() else { return Ok(Vec::new()) };
    let rules = first.rules;
    // At `trace` level a run says when each of its steps ended (µs from its start).
    let (t0, micros) = (std::time::Instant::now(), crate::db::group::micros);
    let (reads, seen) = read_calls(conn, items).await?;
    let t_read = micros(t0.elapsed());
    let by_token: HashMap<&str, usize> = reads.iter().enumerate().map(|(i, r)| (r.token_hash.as_str(), i)).collect();
    let mut seen_by_item: Vec<Option<Seen>> = items.iter().map(|_| None).collect();
    for row in seen {
        if let Some(slot) = usize::try_from(row.idx).ok().and_then(|i| seen_by_item.get_mut(i)) {
            *slot = Some(row);
        }
    }
    let now = now_ms();
    let mut run = Run {
        postgres: ledger::is_postgres(conn),
        held: HashMap::new(),
        rounds: HashMap::new(),
        answered: HashMap::new(),
        accepted: Vec::with_capacity(items.len()),
    };
    let mut results = Vec::with_capacity(items.len());
    for (index, (item, seen)) in items.iter().zip(&seen_by_item).enumerate() {
        let read = by_token.get(item.token_hash.as_str()).copied();
        let read = read.and_then(|r| reads.get(r).map(|found| (r, found)));
        results.push(run.check(index, item, read, seen.as_ref()));
    }
    if run.accepted.is_empty() {
        return Ok(results);
    }
    // The money: every call's movement in one post. The funds were checked above under the
    // lane's order and the transaction ids are new (their earlier answers were looked for), so a
    // refusal here (none is expected) fails the whole run.
    let mut entries: Vec<ledger::Entry<'_>> = Vec::with_capacity(run.accepted.len());
    for call in &run.accepted {
        let (Some(item), Some(read)) = (items.get(call.item), reads.get(call.read)) else { continue };
        let amount = item.request.amount;
        let entry = if item.win {
            win_entry(&read.session, call.currency, &call.key, amount)
        } else {
            bet_entry(&read.session, call.currency, &call.key, amount)
        };
        entries.extend(entry);
    }
    let t_check = micros(t0.elapsed());
    // The rounds and the wallet records go with the money (on SQLite in one round trip).
    let lists = call_lists(items, &reads, &run, now);
    let then = ledger::Then {
        sqlite_with_post: POST_AND_CALLS_SQLITE.as_str(),
        sqlite: CALLS_SQLITE,
        postgres: CALLS_POSTGRES,
        values: &lists,
    };
    match ledger::post_fresh_then(conn, &entries, &then).await {
        Ok(()) => {}
        Err(LedgerError::Db(e)) => return Err(WalletError::Db(e)),
        Err(refused) => {
            return Err(WalletError::Db(sqlx::Error::Protocol(format!(
                "a merged wallet call's movement was refused: {refused}"
            ))));
        }
    }
    let t_post = micros(t0.elapsed());
    // Loyalty: the points of every real-money bet in one upsert. (Sent with the post too, it
    // saved nothing measurable: 5.7 ms for the three against 5.1 + 0.5 ms, the lane's trace,
    // 2026-11-29.)
    let earned: Vec<(i64, i64)> =
        run.accepted.iter().filter_map(|c| reads.get(c.read).map(|r| (r.session.user_id, c.points))).collect();
    loyalty::accrue_many(conn, &rules, &earned).await?;
    tracing::trace!(calls = items.len(), t_read, t_check, t_post, t_accrue = micros(t0.elapsed()), "calls");
    // A big real-money win is listed on /winners (rare).
    for call in &run.accepted {
        let (Some(item), Some(read)) = (items.get(call.item), reads.get(call.read)) else { continue };
        let Some(round) = run.rounds.get(&call.round) else { continue };
        let (round_bet, round_win) = call.totals;
        if !item.win || read.session.mode != "real" || !winners::is_big(round_bet, round_win, rules.big_win) {
            continue;
        }
        let round_id = match round.id {
            Some(id) => id,
            None => {
                sqlx::query_scalar("SELECT id FROM game_rounds WHERE provider = $1 AND round = $2")
                    .bind(&call.round.0)
                    .bind(&call.round.1)
                    .fetch_one(&mut *conn)
                    .await?
            }
        };
        let won = competition::Win { key: &call.key, round_id, amount: item.request.amount, round_bet, round_win };
        winners::on_win(conn, &read.session, call.currency, &won, rules.big_win).await?;
    }
    Ok(results)
}

/// The run's state while its calls are checked in order.
struct Run {
    /// On PostgreSQL a call is merged only on its player's lane, with their row locked.
    postgres: bool,
    held: HashMap<Held, i64>,
    rounds: Rounds,
    /// Transaction ids answered earlier in the run: (provider, id) → (fingerprint, answer, the
    /// call's player).
    answered: HashMap<(String, String), (String, String, i64)>,
    accepted: Vec<Accepted>,
}

impl Run {
    /// One call's checks against its reads and what the run's earlier calls left, in the
    /// general path's order; an accepted call's effects are kept in memory for the writes.
    fn check(
        &mut self,
        index: usize,
        item: &QueuedCall,
        read: Option<(usize, &CallRead)>,
        seen: Option<&Seen>,
    ) -> Result<Option<WalletResponse>, WalletError> {
        let request = &item.request;
        let kind = item.kind();
        // The first answer of a transaction id seen before (here or in the database).
        let id = (item.provider.clone(), request.transaction_uuid.clone());
        // Answered to its own player only (the token's, when it finds a session), as on the
        // general path.
        let earlier = match self.answered.get(&id) {
            Some((fingerprint, response, player)) => Some((fingerprint.clone(), response.clone(), Some(*player))),
            None => seen.and_then(|s| {
                let (fingerprint, response) = s.seen_fingerprint.clone().zip(s.seen_response.clone())?;
                Some((fingerprint, response, s.seen_user))
            }),
        };
        if let Some(first) = replayed(request, kind, earlier, read.map(|(_, r)| r.session.user_id))? {
            return Ok(Some(first));
        }
        let Some((read_index, read)) = read else { return Err(WalletError::Status("RS_ERROR_INVALID_TOKEN")) };
        let session = &read.session;
        check_session(session, &item.provider, request, item.win)?;
        let real = session.mode == "real";
        // Only what is all main (or fun) money, on the lane whose player is locked.
        let fits = session.held_balance().is_some()
            && !(real && (session.competing > 0 || session.play_limits != 0))
            && (!self.postgres || item.user_id == session.user_id);
        if !fits {
            return Ok(None);
        }
        let round_key = (item.provider.clone(), request.round.clone());
        let currency = currency_of(session)?;
        let account: Held = (session.user_id, !real, currency);
        let held = *self.held.entry(account).or_insert(session.held);
        let (balance, points, totals) = if item.win {
            if request.amount < 0 || request.transaction_uuid.is_empty() {
                return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
            }
            let round = self.round(&round_key, seen, None).filter(|r| r.owned_by(session));
            let Some(round) = round else {
                return Err(WalletError::Status("RS_ERROR_TRANSACTION_DOES_NOT_EXIST"));
            };
            // A round a bonus staked shares its win: the general path.
            if real && round.bonus_stakes > 0 && request.amount > 0 {
                return Ok(None);
            }
            // Sums past the integer range (a forged amount) are refused, not wrapped.
            let sums = (held.checked_add(request.amount), round.added_win.checked_add(request.amount));
            let (Some(after), Some(added_win)) = sums else { return Err(WalletError::Status("RS_ERROR_UNKNOWN")) };
            let totals = (round.bet.saturating_add(round.added_bet), round.win.saturating_add(added_win));
            round.added_win = added_win;
            round.closes |= request.round_closed;
            (after, 0, totals)
        } else {
            if request.amount < 0 || request.transaction_uuid.is_empty() || request.round.is_empty() {
                return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
            }
            if real && let Some(exclusion) = session.exclusion() {
                return Err(WalletError::Excluded(exclusion));
            }
            // A round that exists must be open and the session's; none yet is opened by the bet.
            let open = self.round(&round_key, seen, None).is_none_or(|r| r.open && !r.closes && r.owned_by(session));
            if !open {
                return Err(WalletError::Status("RS_ERROR_UNKNOWN"));
            }
            if held < request.amount {
                return Err(WalletError::Status("RS_ERROR_NOT_ENOUGH_MONEY"));
            }
            // Accepted: the round is opened by this bet when there is none yet.
            if let Some(round) = self.round(&round_key, seen, Some((read_index, session))) {
                round.added_bet = round.added_bet.saturating_add(request.amount);
                round.closes |= request.round_closed;
            }
            let points = if real { read.loyalty.points(request.amount, currency) } else { 0 };
            (held - request.amount, points, (0, 0))
        };
        self.held.insert(account, balance);
        let response = answer("RS_OK", request, Some((balance, currency.code())));
        let text = serde_json::to_string(&response).unwrap_or_default();
        let fingerprint = request.fingerprint(kind);
        self.answered.insert(id, (fingerprint.clone(), text.clone(), session.user_id));
        self.accepted.push(Accepted {
            item: index,
            read: read_index,
            currency,
            key: ledger_key(),
            round: round_key,
            totals,
            points,
            response: text,
            fingerprint,
        });
        Ok(Some(response))
    }
}

/// A merged call's ledger key: `wallet#` and a new time-ordered id (UUIDv7), where the general
/// path's is `wallet:{provider}:{transaction id}` (which no `wallet#` key can equal).
///
/// Why (issue 23, the aggregator's pairs): the transaction id is the aggregator's, in no useful
/// order, so its key put every call's insert into the ledger keys' unique index on a leaf of its
/// own; a run of ~100 calls dirtied ~100 leaves, each a page the commit writes to the log (and,
/// on PostgreSQL, a full page image after each checkpoint). Time-ordered keys append to the
/// index's last leaves. The call's idempotency does not rest on the ledger key: its wallet record's
/// primary key (provider, transaction id), written in the same transaction, refuses a second
/// record, and every call looks for its first answer there before it moves money. The record
/// keeps the key (`wallet_transactions.ledger_key`, migration 0032) to join the two.
///
/// Measured with `croupier-bench --only wallet`, alternated runs (2026-12-01): aggregator pairs
/// on SQLite 4,635 / 5,295/s back to back against 4,599 / 4,239/s before, on PostgreSQL 2,782 /
/// 2,581/s against 2,187 / 2,226/s.
fn ledger_key() -> String {
    format!("wallet#{}", uuid::Uuid::now_v7().simple())
}

impl Run {
    /// The run's state of a round: as an earlier call of the run left it, else as read (`seen`),
    /// else opened by a bet of the session read `opener` (none: the round does not exist).
    fn round(
        &mut self,
        key: &(String, String),
        seen: Option<&Seen>,
        opener: Option<(usize, &GameSession)>,
    ) -> Option<&mut RoundState> {
        if !self.rounds.contains_key(key) {
            let state = match (seen.and_then(|s| s.round_id.map(|id| (id, s))), opener) {
                (Some((id, seen)), _) => RoundState::read(id, seen),
                (None, Some((read, session))) => RoundState::opened(read, session),
                (None, None) => return None,
            };
            self.rounds.insert(key.clone(), state);
        }
        self.rounds.get_mut(key)
    }
}

impl RoundState {
    /// The round is `session`'s: its player's, in its mode and currency.
    fn owned_by(&self, session: &GameSession) -> bool {
        let (user, mode, currency) = &self.owner;
        (*user, mode.as_str(), currency.as_str()) == (session.user_id, session.mode.as_str(), session.currency.as_str())
    }

    fn read(id: i64, seen: &Seen) -> RoundState {
        RoundState {
            id: Some(id),
            open: seen.round_status.as_deref() == Some("open"),
            bet: seen.round_bet.unwrap_or(0),
            win: seen.round_win.unwrap_or(0),
            bonus_stakes: seen.bonus_stakes,
            owner: (
                seen.round_user.unwrap_or(0),
                seen.round_mode.clone().unwrap_or_default(),
                seen.round_currency.clone().unwrap_or_default(),
            ),
            added_bet: 0,
            added_win: 0,
            closes: false,
            opened_by: None,
        }
    }

    fn opened(read: usize, session: &GameSession) -> RoundState {
        RoundState {
            id: None,
            open: true,
            bet: 0,
            win: 0,
            bonus_stakes: 0,
            owner: (session.user_id, session.mode.clone(), session.currency.clone()),
            added_bet: 0,
            added_win: 0,
            closes: false,
            opened_by: Some(read),
        }
    }
}

/// The rounds and wallet records of a run on SQLite ([`call_lists`]): `$1` the rounds (`[provider,
/// round, row id or null, player, game, currency, mode, bet added, win added, closes (0/1),
/// time]`: a null id opens the round, else its totals grow), `$2` the wallet records (`[provider,
/// transaction id, kind, round, the referenced id, amount, fingerprint, answer, time, loyalty
/// points, ledger key or null]`), each with its round's row id by a scalar lookup. Both lists are
/// parsed once per statement into SQLite's binary JSON (`jsonb_each`), as
/// [`record_house_rounds`]'s are.
const CALLS_SQLITE: &str = "INSERT INTO game_rounds (provider, round, user_id, game_id, currency, mode, bet, win, status, created_at, closed_at) \
     SELECT value ->> 0, value ->> 1, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, \
     CASE WHEN value ->> 9 = 1 THEN 'closed' ELSE 'open' END, value ->> 10, CASE WHEN value ->> 9 = 1 THEN value ->> 10 END \
     FROM jsonb_each(jsonb($1)) WHERE value ->> 2 IS NULL;\n\
     UPDATE game_rounds SET bet = game_rounds.bet + x.bet, win = game_rounds.win + x.win, \
     status = CASE WHEN x.closes = 1 THEN 'closed' ELSE game_rounds.status END, \
     closed_at = CASE WHEN x.closes = 1 THEN x.at ELSE game_rounds.closed_at END \
     FROM (SELECT value ->> 2 AS id, value ->> 7 AS bet, value ->> 8 AS win, value ->> 9 AS closes, value ->> 10 AS at \
       FROM jsonb_each(jsonb($1)) WHERE value ->> 2 IS NOT NULL) x WHERE game_rounds.id = x.id;\n\
     INSERT INTO wallet_transactions (provider, transaction_uuid, kind, round_id, reference_uuid, amount, fingerprint, response, created_at, bonus_id, bonus_wagered, points, ledger_key) \
     SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, \
     (SELECT r.id FROM game_rounds r WHERE r.provider = j.value ->> 0 AND r.round = j.value ->> 3), \
     j.value ->> 4, j.value ->> 5, j.value ->> 6, j.value ->> 7, j.value ->> 8, NULL, 0, j.value ->> 9, j.value ->> 10 FROM jsonb_each(jsonb($2)) j";

/// The same on PostgreSQL, as one statement of data-modifying CTEs (a record of a round opened
/// here takes its id from the insert's answer; the foreign keys are checked at the statement's
/// end). The rounds to update are also named as one array (`= ANY`): joined to the list alone,
/// the planner may scan every round to hash them.
const CALLS_POSTGRES: &str = "WITH j AS (SELECT value AS v FROM jsonb_array_elements(CAST($1 AS JSONB))), \
     n AS (INSERT INTO game_rounds (provider, round, user_id, game_id, currency, mode, bet, win, status, created_at, closed_at) \
     SELECT v ->> 0, v ->> 1, CAST(v ->> 3 AS BIGINT), CAST(v ->> 4 AS BIGINT), v ->> 5, v ->> 6, CAST(v ->> 7 AS BIGINT), \
     CAST(v ->> 8 AS BIGINT), CASE WHEN v ->> 9 = '1' THEN 'closed' ELSE 'open' END, CAST(v ->> 10 AS BIGINT), \
     CASE WHEN v ->> 9 = '1' THEN CAST(v ->> 10 AS BIGINT) END FROM j WHERE v ->> 2 IS NULL RETURNING id, provider, round), \
     u AS (UPDATE game_rounds g SET bet = g.bet + CAST(j.v ->> 7 AS BIGINT), win = g.win + CAST(j.v ->> 8 AS BIGINT), \
     status = CASE WHEN j.v ->> 9 = '1' THEN 'closed' ELSE g.status END, \
     closed_at = CASE WHEN j.v ->> 9 = '1' THEN CAST(j.v ->> 10 AS BIGINT) ELSE g.closed_at END \
     FROM j WHERE j.v ->> 2 IS NOT NULL AND g.id = CAST(j.v ->> 2 AS BIGINT) \
     AND g.id = ANY(ARRAY(SELECT CAST(v ->> 2 AS BIGINT) FROM j WHERE v ->> 2 IS NOT NULL)) RETURNING g.id), \
     w AS (INSERT INTO wallet_transactions (provider, transaction_uuid, kind, round_id, reference_uuid, amount, fingerprint, response, created_at, bonus_id, bonus_wagered, points, ledger_key) \
     SELECT x ->> 0, x ->> 1, x ->> 2, \
     COALESCE((SELECT g.id FROM game_rounds g WHERE g.provider = x ->> 0 AND g.round = x ->> 3), \
       (SELECT n.id FROM n WHERE n.provider = x ->> 0 AND n.round = x ->> 3)), \
     x ->> 4, CAST(x ->> 5 AS BIGINT), x ->> 6, x ->> 7, CAST(x ->> 8 AS BIGINT), CAST(NULL AS BIGINT), 0, CAST(x ->> 9 AS BIGINT), x ->> 10 \
     FROM jsonb_array_elements(CAST($2 AS JSONB)) AS t(x) RETURNING 1) \
     SELECT CAST((SELECT COUNT(*) FROM w) + (SELECT COUNT(*) FROM u) AS BIGINT)";

/// [`CALLS_SQLITE`] after the ledger's post, as one ([`ledger::post_fresh_sqlite_then`]).
static POST_AND_CALLS_SQLITE: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| ledger::post_fresh_sqlite_then(CALLS_SQLITE));

/// The run's rounds (opened, or their totals grown) and a wallet record per accepted call, as
/// [`CALLS_SQLITE`]'s and [`CALLS_POSTGRES`]'s two JSON lists.
fn call_lists(items: &[&QueuedCall], reads: &[CallRead], run: &Run, now: i64) -> [String; 2] {
    let mut rounds = Vec::with_capacity(run.rounds.len());
    for ((provider, round), state) in &run.rounds {
        if state.id.is_some() && state.added_bet == 0 && state.added_win == 0 && !state.closes {
            continue;
        }
        // The player, game, currency and mode of the bet that opened it (unused for an update).
        let opener = state.opened_by.and_then(|read| reads.get(read)).map(|r| &r.session);
        rounds.push(serde_json::json!([
            provider,
            round,
            state.id,
            opener.map(|s| s.user_id),
            opener.map(|s| s.game_id),
            opener.map(|s| s.currency.as_str()),
            opener.map(|s| s.mode.as_str()),
            state.added_bet,
            state.added_win,
            i64::from(state.closes),
            now,
        ]));
    }
    let records: Vec<serde_json::Value> = run
        .accepted
        .iter()
        .filter_map(|call| {
            let item = items.get(call.item)?;
            Some(serde_json::json!([
                item.provider,
                item.request.transaction_uuid,
                item.kind(),
                item.request.round,
                item.request.reference_transaction_uuid,
                item.request.amount,
                call.fingerprint,
                call.response,
                now,
                call.points,
                // No movement for a zero amount (`bet_entry`, `win_entry`): no ledger key.
                (item.request.amount > 0).then_some(call.key.as_str()),
            ]))
        })
        .collect();
    [serde_json::Value::Array(rounds).to_string(), serde_json::Value::Array(records).to_string()]
}
