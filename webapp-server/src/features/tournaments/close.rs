//! Closing tournaments, on one replica (the `competition` lease, see [`spawn`]).
//!
//! 1. **Freeze**, in one transaction, [`GRACE`] after the window ends (so that bets placed just
//!    before the end have landed): the status moves `scheduled` → `closing` and the final board
//!    (the database's order) is written as one `tournament_prizes` row per prize rank
//!    (`pending`), with the rank notices of the participants who asked for them. Nothing after the
//!    end scores, so the board is already still.
//! 2. **Pay**, one prize per transaction on the winner's lane of the group committer: the row
//!    moves `pending` → `paid` in the same transaction as the prize's money (ledger key
//!    `tournament:{id}:prize:{rank}`), bonus, free spins or points, its winners-feed entry and
//!    its bot notice. A crash before the commit leaves it pending (paid on the next pass); after,
//!    it is paid and never again. So a kill -9 anywhere pays nobody twice and nobody zero times.
//! 3. With no prize pending, the status moves to `closed` and the Redis board is forgotten.

use super::{PrizeTier, Row, board, competition};
use crate::AppState;
use crate::api::ApiError;
use crate::db::group::job;
use crate::db::now_ms;
use crate::features::bonuses::Rules;
use crate::features::bonuses::engine::{self, Actor};
use crate::features::notify::{self, Notice};
use crate::features::{freespins, loyalty, winners};
use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError};
use croupier_shared::Currency;
use std::time::Duration;

/// How long after its end a tournament is frozen.
pub const GRACE: Duration = Duration::from_secs(3);
const TICK: Duration = Duration::from_millis(250);
const LEASE: Duration = Duration::from_secs(10);

/// The competition loop of this replica: while it holds the `competition` lease, it drains the
/// board changes ([`board::sync`]) and closes what has ended.
pub fn spawn(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let holder = uuid::Uuid::new_v4().to_string();
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut holding = false;
        let mut last_close = std::time::Instant::now() - Duration::from_secs(60);
        loop {
            tick.tick().await;
            match state.coord().acquire_lease("job:competition", &holder, LEASE).await {
                Ok(true) => {}
                Ok(false) => {
                    holding = false;
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot take the competition lease");
                    continue;
                }
            }
            if !holding {
                // A new holder: Redis may have lost boards while nobody kept them.
                holding = true;
                if let Ok(ids) = board::running_ids(&state).await {
                    for id in ids {
                        if let Err(e) = board::rebuild(&state, id).await {
                            tracing::warn!(tournament = id, error = %e, "cannot rebuild a board");
                        }
                    }
                }
            }
            if let Err(e) = board::sync(&state).await {
                tracing::warn!(error = %e, "board sync failed");
            }
            if last_close.elapsed() >= Duration::from_secs(1) {
                last_close = std::time::Instant::now();
                if let Err(e) = run(&state).await {
                    tracing::warn!(error = format!("{e:#}"), "tournament close failed");
                }
            }
        }
    })
}

/// One pass: freezes what ended, pays what is pending, closes what is paid.
pub async fn run(state: &AppState) -> anyhow::Result<()> {
    let now = now_ms();
    let grace = i64::try_from(GRACE.as_millis()).unwrap_or(3_000);
    let ended: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM tournaments WHERE status = 'scheduled' AND ends_at <= $1 ORDER BY id")
            .bind(now - grace)
            .fetch_all(state.db().pool())
            .await?;
    for id in ended {
        freeze(state, id).await?;
    }
    let closing: Vec<i64> = sqlx::query_scalar("SELECT id FROM tournaments WHERE status = 'closing' ORDER BY id")
        .fetch_all(state.db().pool())
        .await?;
    for id in closing {
        pay_all(state, id).await?;
    }
    Ok(())
}

/// Writes the final board's prize rows and rank notices, and moves the tournament to `closing`.
pub async fn freeze(state: &AppState, id: i64) -> anyhow::Result<()> {
    let mut tx = state.db().begin().await?;
    let moved = sqlx::query(
        "UPDATE tournaments SET status = 'closing', updated_at = $1 WHERE id = $2 AND status = 'scheduled'",
    )
    .bind(now_ms())
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if moved == 0 {
        return Ok(());
    }
    let row: Row =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {} FROM tournaments WHERE id = $1", super::COLUMNS)))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
    let tiers = row.tiers();
    let last_prize = tiers.iter().map(|t| t.rank_to).max().unwrap_or(0);
    let standings: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT user_id, score, notify_rank FROM tournament_scores WHERE tournament_id = $1 \
         ORDER BY score DESC, reached_at ASC, user_id ASC",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    let total = i64::try_from(standings.len()).unwrap_or(i64::MAX);
    for ((user, score, notify_rank), rank) in standings.into_iter().zip(1_i64..) {
        let tier = (score > 0 && rank <= last_prize).then(|| tiers.iter().find(|t| t.covers(rank))).flatten();
        if let Some(tier) = tier {
            sqlx::query(
                "INSERT INTO tournament_prizes (tournament_id, rank, user_id, score, kind, prize, status) \
                 VALUES ($1, $2, $3, $4, $5, $6, 'pending')",
            )
            .bind(id)
            .bind(rank)
            .bind(user)
            .bind(score)
            .bind(&tier.kind)
            .bind(serde_json::to_string(tier)?)
            .execute(&mut *tx)
            .await?;
        }
        if notify_rank == 1 {
            let notice = Notice::TournamentRank {
                tournament_id: id,
                title_en: row.title_en.clone(),
                title_fr: row.title_fr.clone(),
                rank,
                participants: total,
            };
            notify::enqueue(&mut tx, user, &format!("tournament:{id}:rank:{user}"), &notice).await?;
        }
    }
    if row.repeat_days > 0 {
        next_edition(&mut tx, &row).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Schedules the next edition of a repeating tournament: the same settings, its window moved by
/// `repeat_days` (in the freeze's transaction, so exactly one next edition exists).
async fn next_edition(conn: &mut sqlx::AnyConnection, row: &Row) -> anyhow::Result<()> {
    let shift = row.repeat_days * 86_400_000;
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO tournaments (title_en, title_fr, description_en, description_fr, image, starts_at, ends_at, time_zone, currencies, rates, \
         scoring, participation, min_bet, games, prizes, status, repeat_days, board_version, created_at, updated_at) \
         SELECT title_en, title_fr, description_en, description_fr, image, starts_at + $1, ends_at + $1, time_zone, currencies, rates, \
         scoring, participation, min_bet, games, prizes, 'scheduled', repeat_days, 0, $2, $2 FROM tournaments WHERE id = $3 RETURNING id",
    )
    .bind(shift)
    .bind(now)
    .bind(row.id)
    .fetch_one(&mut *conn)
    .await?;
    let selector: super::games::GameSelector = serde_json::from_str(&row.games).unwrap_or_default();
    let covered =
        super::games::resolve(conn, &selector).await.map_err(|e| anyhow::anyhow!("tournament {id}: {e:?}"))?;
    super::games::cover(conn, "tournament", id, &covered, row.ends_at + shift).await?;
    Ok(())
}

/// Pays every pending prize of `id`, then closes it.
pub async fn pay_all(state: &AppState, id: i64) -> anyhow::Result<()> {
    let pending: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT rank, user_id FROM tournament_prizes WHERE tournament_id = $1 AND status = 'pending' ORDER BY rank",
    )
    .bind(id)
    .fetch_all(state.db().pool())
    .await?;
    let pause = state.config().tournament_payout_pause;
    for (rank, user) in pending {
        pay(state, id, rank, user).await.map_err(|e| anyhow::anyhow!("tournament {id} rank {rank}: {e:?}"))?;
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }
    let left: i64 = sqlx::query_scalar(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM tournament_prizes WHERE tournament_id = $1 AND status = 'pending'",
    )
    .bind(id)
    .fetch_one(state.db().pool())
    .await?;
    if left == 0 {
        sqlx::query("UPDATE tournaments SET status = 'closed', closed_at = $1, updated_at = $1 WHERE id = $2 AND status = 'closing'")
            .bind(now_ms())
            .bind(id)
            .execute(state.db().pool())
            .await?;
        games_end(state, id).await?;
        board::forget(state, id).await?;
    }
    Ok(())
}

async fn games_end(state: &AppState, id: i64) -> Result<(), sqlx::Error> {
    let mut conn = state.db().pool().acquire().await?;
    super::games::set_end(&mut conn, "tournament", id, 0).await
}

/// Pays prize `rank` of tournament `id` to `user`, once.
async fn pay(state: &AppState, id: i64, rank: i64, user: i64) -> Result<(), ApiError> {
    let rules = Rules { max_active: i64::MAX, ..Rules::of(state) };
    let db = state.db().clone();
    state
        .db()
        .group(
            user,
            job(move |conn| {
                let db = db.clone();
                Box::pin(async move {
                    db.lock_user(conn, user).await?;
                    let taken = sqlx::query(
                        "UPDATE tournament_prizes SET status = 'paid', paid_at = $1 \
                         WHERE tournament_id = $2 AND rank = $3 AND status = 'pending'",
                    )
                    .bind(now_ms())
                    .bind(id)
                    .bind(rank)
                    .execute(&mut *conn)
                    .await?
                    .rows_affected();
                    if taken == 0 {
                        return Ok(());
                    }
                    let (prize, rates, currencies, title_en, title_fr): (String, String, String, String, String) = sqlx::query_as(
                        "SELECT p.prize, t.rates, t.currencies, t.title_en, t.title_fr FROM tournament_prizes p JOIN tournaments t ON t.id = p.tournament_id \
                         WHERE p.tournament_id = $1 AND p.rank = $2",
                    )
                    .bind(id)
                    .bind(rank)
                    .fetch_one(&mut *conn)
                    .await?;
                    let tier: PrizeTier =
                        serde_json::from_str(&prize).map_err(|e| ApiError::internal(anyhow::anyhow!("prize {id}/{rank}: {e}")))?;
                    let player_currency: Option<String> =
                        sqlx::query_scalar("SELECT currency FROM users WHERE id = $1").bind(user).fetch_one(&mut *conn).await?;
                    let first = currencies.split(',').next().and_then(Currency::parse);
                    // The winner's currency when the tournament counts it, else the first one.
                    let currency = player_currency
                        .as_deref()
                        .and_then(Currency::parse)
                        .filter(|c| competition::rate(&rates, *c).is_some())
                        .or(first)
                        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("tournament {id}: no currency")))?;
                    let to_player = |amount: i64| back(amount, &rates, currency);
                    let key = format!("tournament:{id}:prize:{rank}");
                    let mut feed = None;
                    let reference = match tier.kind.as_str() {
                        "money" => {
                            let amount = to_player(tier.amount.unwrap_or(0));
                            let entry = Entry::transfer(
                                &key,
                                "tournament_prize",
                                currency,
                                Account::House(HouseAccount::Promotions),
                                Account::main(user),
                                amount,
                            )
                            .by(Some(user));
                            ledger::post(conn, &entry).await.map_err(|e| match e {
                                LedgerError::Db(e) => ApiError::from(e),
                                other => ApiError::internal(anyhow::anyhow!("prize {key}: {other}")),
                            })?;
                            feed = Some(amount);
                            key.clone()
                        }
                        "bonus" => {
                            let amount = to_player(tier.amount.unwrap_or(0));
                            let title = |t: &str, fr: bool| {
                                if fr { format!("{t} : prix du rang {rank}") } else { format!("{t}: prize for rank {rank}") }
                            };
                            let bonus_id: i64 = sqlx::query_scalar(
                                "INSERT INTO player_bonuses (user_id, claim_key, currency, status, reward, max_bonus, wager_multiplier, wager_days, \
                                 title_en, title_fr, text_en, text_fr, created_at) \
                                 VALUES ($1, $2, $3, 'offered', 'fixed', $4, $5, $6, $7, $8, $7, $8, $9) RETURNING id",
                            )
                            .bind(user)
                            .bind(&key)
                            .bind(currency.code())
                            .bind(amount)
                            .bind(rules.multiplier(tier.wager_multiplier.unwrap_or(30)))
                            .bind(tier.wager_days.unwrap_or(7))
                            .bind(title(&title_en, false))
                            .bind(title(&title_fr, true))
                            .bind(now_ms())
                            .fetch_one(&mut *conn)
                            .await?;
                            let reason = format!("tournament {id} rank {rank}");
                            engine::event(conn, bonus_id, None, "offered", &reason, Actor::System, 0).await?;
                            let bonus = engine::load(conn, bonus_id)
                                .await?
                                .ok_or_else(|| ApiError::internal(anyhow::anyhow!("prize {key}: its bonus vanished")))?;
                            engine::credit(conn, &rules, &bonus, None, Actor::System, &reason)
                                .await
                                .map_err(crate::features::bonuses::methods::refusal)?;
                            feed = Some(amount);
                            format!("bonus:{bonus_id}")
                        }
                        "freespins" => {
                            let spins = tier.freespins.clone().unwrap_or(super::SpinsPrize { game: String::new(), count: 0, bet: 0 });
                            let pack = freespins::grant_in(
                                conn,
                                user,
                                &spins.game,
                                currency,
                                to_player(spins.bet).max(1),
                                spins.count,
                                None,
                                7 * 86_400_000,
                            )
                            .await
                            .map_err(|e| ApiError::internal(anyhow::anyhow!("prize {key}: {e:?}")))?;
                            format!("freespins:{pack}")
                        }
                        _ => {
                            let points = tier.points.unwrap_or(0);
                            loyalty::entry(conn, &rules, user, &key, "tournament", points, points, Some(&format!("tournament {id}")))
                                .await?;
                            format!("points:{points}")
                        }
                    };
                    sqlx::query("UPDATE tournament_prizes SET reference = $1 WHERE tournament_id = $2 AND rank = $3")
                        .bind(&reference)
                        .bind(id)
                        .bind(rank)
                        .execute(&mut *conn)
                        .await?;
                    if let Some(amount) = feed {
                        winners::record(
                            conn,
                            &winners::Record {
                                kind: "tournament",
                                reference: &format!("{id}:{rank}"),
                                user_id: user,
                                game_id: None,
                                amount,
                                currency: currency.code(),
                                multiplier_x100: None,
                                tournament_id: Some(id),
                                pool_id: None,
                            },
                        )
                        .await?;
                    }
                    let notice = Notice::TournamentPrize {
                        tournament_id: id,
                        title_en,
                        title_fr,
                        rank,
                        prize: tier.kind.clone(),
                        amount: feed.map(|a| notify::amount(a, currency)),
                        currency: feed.map(|_| currency.code().to_owned()),
                        points: tier.points,
                        spins: tier.freespins.as_ref().map(|s| s.count),
                    };
                    notify::enqueue(conn, user, &format!("{key}:won"), &notice).await?;
                    Ok(())
                })
            }),
        )
        .await
}

/// An amount of the first currency in `currency` (rounded down).
fn back(amount: i64, rates: &str, currency: Currency) -> i64 {
    match competition::rate(rates, currency) {
        Some(factor) if factor > 0 => {
            i64::try_from(i128::from(amount) * 1_000_000 / i128::from(factor)).unwrap_or(amount)
        }
        _ => amount,
    }
}
