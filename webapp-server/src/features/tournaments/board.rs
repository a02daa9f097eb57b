//! Leaderboards.
//!
//! **The truth is the database**: `tournament_scores` is written in the transaction of the bet,
//! win or rollback that changes it (so a replayed call scores nothing and a rolled-back batch
//! leaves nothing), and every change also queues a row in `board_changes`.
//!
//! **Reads** come from a Redis sorted set when `REDIS_URL` is set, and from the database
//! otherwise. The **syncer** ([`sync`], every [`SYNC_EVERY`] on the one replica holding the
//! `competition-board` lease) drains `board_changes`: it copies each changed participant's row
//! to Redis (absolute values with their `seq`, so a copy that arrives late never takes a score
//! back) and bumps the tournament's `board_version`, which open pages watch
//! (`features::live`). It deletes exactly the change rows it handled, so a change committed late
//! is never skipped. When Redis lost a board (restart, eviction), [`rebuild`] writes it again from
//! the database; the syncer does that for every running tournament when it first takes the lease.
//!
//! **Order**, the same in both: the higher score first; on equal scores, whoever reached it
//! first (`reached_at`, the time of the participant's last change); then the lower user id.

use crate::AppState;
use crate::coord::CoordError;
use crate::db::now_ms;
use sqlx::AnyConnection;
use std::time::Duration;

/// How often the syncer drains the queued changes.
pub const SYNC_EVERY: Duration = Duration::from_millis(250);
/// Change rows handled per pass.
const SYNC_BATCH: i64 = 2_000;

fn board_key(tournament: i64) -> String {
    format!("t{tournament}")
}

async fn changed(conn: &mut AnyConnection, tournament: i64, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO board_changes (tournament_id, user_id) VALUES ($1, $2)")
        .bind(tournament)
        .bind(user)
        .execute(conn)
        .await?;
    Ok(())
}

/// Adds `delta` to a participant's score. `automatic`: a player who is not a participant yet
/// becomes one; otherwise (opt-in) only a participant scores. Answers whether a score changed.
pub async fn add(
    conn: &mut AnyConnection,
    tournament: i64,
    user: i64,
    delta: i64,
    now: i64,
    automatic: bool,
) -> Result<bool, sqlx::Error> {
    write(conn, tournament, user, delta, now, automatic, false).await
}

/// Keeps the better of a participant's score and `value` (the multiplier rule).
pub async fn best(
    conn: &mut AnyConnection,
    tournament: i64,
    user: i64,
    value: i64,
    now: i64,
    automatic: bool,
) -> Result<bool, sqlx::Error> {
    write(conn, tournament, user, value, now, automatic, true).await
}

/// [`add`] (`best` false) or [`best`]: one statement, and the change queued for the syncer.
async fn write(
    conn: &mut AnyConnection,
    tournament: i64,
    user: i64,
    value: i64,
    now: i64,
    automatic: bool,
    best: bool,
) -> Result<bool, sqlx::Error> {
    let statement = match (automatic, best) {
        (true, false) => {
            "INSERT INTO tournament_scores (tournament_id, user_id, score, reached_at, seq, notify_rank, joined_at) \
             VALUES ($1, $2, $3, $4, 1, 0, $4) ON CONFLICT (tournament_id, user_id) DO UPDATE \
             SET score = tournament_scores.score + excluded.score, reached_at = excluded.reached_at, seq = tournament_scores.seq + 1"
        }
        (true, true) => {
            "INSERT INTO tournament_scores (tournament_id, user_id, score, reached_at, seq, notify_rank, joined_at) \
             VALUES ($1, $2, $3, $4, 1, 0, $4) ON CONFLICT (tournament_id, user_id) DO UPDATE \
             SET score = excluded.score, reached_at = excluded.reached_at, seq = tournament_scores.seq + 1 \
             WHERE tournament_scores.score < excluded.score"
        }
        (false, false) => {
            "UPDATE tournament_scores SET score = score + $3, reached_at = $4, seq = seq + 1 \
             WHERE tournament_id = $1 AND user_id = $2"
        }
        (false, true) => {
            "UPDATE tournament_scores SET score = $3, reached_at = $4, seq = seq + 1 \
             WHERE tournament_id = $1 AND user_id = $2 AND score < $3"
        }
    };
    let written = sqlx::query(statement)
        .bind(tournament)
        .bind(user)
        .bind(value)
        .bind(now)
        .execute(&mut *conn)
        .await?
        .rows_affected()
        > 0;
    if written {
        changed(conn, tournament, user).await?;
    }
    Ok(written)
}

/// Makes `user` a participant with no score yet (joining), keeping an existing score. Answers
/// whether the player was new.
pub async fn join(
    conn: &mut AnyConnection,
    tournament: i64,
    user: i64,
    notify_rank: bool,
) -> Result<bool, sqlx::Error> {
    let now = now_ms();
    let new = sqlx::query(
        "INSERT INTO tournament_scores (tournament_id, user_id, score, reached_at, seq, notify_rank, joined_at) \
         VALUES ($1, $2, 0, $3, 1, $4, $3) ON CONFLICT (tournament_id, user_id) DO NOTHING",
    )
    .bind(tournament)
    .bind(user)
    .bind(now)
    .bind(i64::from(notify_rank))
    .execute(&mut *conn)
    .await?
    .rows_affected()
        > 0;
    if new {
        changed(conn, tournament, user).await?;
    } else if notify_rank {
        sqlx::query("UPDATE tournament_scores SET notify_rank = 1 WHERE tournament_id = $1 AND user_id = $2")
            .bind(tournament)
            .bind(user)
            .execute(&mut *conn)
            .await?;
    }
    Ok(new)
}

/// A participant on a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    pub user: i64,
    pub score: i64,
    /// 1 is first.
    pub rank: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Coord(#[from] CoordError),
}

impl From<BoardError> for crate::api::ApiError {
    fn from(e: BoardError) -> crate::api::ApiError {
        match e {
            BoardError::Db(e) => e.into(),
            BoardError::Coord(e) => crate::api::ApiError::internal(e),
        }
    }
}

/// A board as a page shows it ([`Source::view`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub top: Vec<Standing>,
    /// How many participants the board has, read with a top only (0 when `count` was 0: on the
    /// database it is a count of the board's rows).
    pub size: i64,
    /// The player's standing (asked for and on the board).
    pub mine: Option<Standing>,
    /// The score at the best rank of the next better prize tier than the player's.
    pub next_prize_score: Option<i64>,
}

/// The best rank of the next better prize tier for a player at `rank` (1-based): the greatest
/// of the tiers' last ranks (`prize_ends`) above it.
pub fn next_prize_rank(prize_ends: &[i64], rank: i64) -> Option<i64> {
    prize_ends.iter().copied().filter(|&end| end < rank).max()
}

/// `(user, score)` rows ranked from position `from` (0 is the first).
fn ranked(rows: Vec<(i64, i64)>, from: i64) -> Vec<Standing> {
    rows.into_iter().zip(from + 1..).map(|((user, score), rank)| Standing { user, score, rank }).collect()
}

/// Where a board is read from.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    Database(&'a crate::db::Db),
    Redis(&'a crate::coord::redis_impl::RedisCoord),
}

impl<'a> Source<'a> {
    /// Redis when the app coordinates through it, else the database.
    pub fn of(state: &'a AppState) -> Source<'a> {
        match state.coord().as_redis() {
            Some(redis) => Source::Redis(redis),
            None => Source::Database(state.db()),
        }
    }

    /// Participants ranked `from..from + count` (`from` 0 is the first).
    pub async fn range(self, tournament: i64, from: i64, count: i64) -> Result<Vec<Standing>, BoardError> {
        if count <= 0 {
            return Ok(Vec::new());
        }
        let rows: Vec<(i64, i64)> = match self {
            Source::Redis(redis) => redis.board_range(&board_key(tournament), from, from + count - 1).await?,
            Source::Database(db) => {
                sqlx::query_as(
                    "SELECT user_id, score FROM tournament_scores WHERE tournament_id = $1 \
                     ORDER BY score DESC, reached_at ASC, user_id ASC LIMIT $2 OFFSET $3",
                )
                .bind(tournament)
                .bind(count)
                .bind(from)
                .fetch_all(db.pool())
                .await?
            }
        };
        Ok(ranked(rows, from))
    }

    /// The top `count`, the board's size and, for `user`, their standing and who stands at the
    /// best rank of the next better prize tier (`prize_ends`: the tiers' last ranks) — on Redis in
    /// one round trip.
    pub async fn view(
        self,
        tournament: i64,
        count: i64,
        user: Option<i64>,
        prize_ends: &[i64],
    ) -> Result<View, BoardError> {
        if let Source::Redis(redis) = self {
            let read = redis.board_view(&board_key(tournament), count, user, prize_ends).await?;
            let mine = user.zip(read.mine).map(|(user, (rank, score))| Standing { user, score, rank: rank + 1 });
            return Ok(View {
                top: ranked(read.top, 0),
                size: read.size,
                mine,
                next_prize_score: read.next_prize_score,
            });
        }
        let top = self.range(tournament, 0, count).await?;
        let size = if count > 0 { self.len(tournament).await? } else { 0 };
        let mine = match user {
            Some(user) => self.standing(tournament, user).await?,
            None => None,
        };
        let next_prize_score = match mine.and_then(|m| next_prize_rank(prize_ends, m.rank)) {
            Some(rank) => self.range(tournament, rank - 1, 1).await?.first().map(|s| s.score),
            None => None,
        };
        Ok(View { top, size, mine, next_prize_score })
    }

    /// A participant's rank and score.
    pub async fn standing(self, tournament: i64, user: i64) -> Result<Option<Standing>, BoardError> {
        match self {
            Source::Redis(redis) => Ok(redis
                .board_rank(&board_key(tournament), user)
                .await?
                .map(|(rank, score)| Standing { user, score, rank: rank + 1 })),
            Source::Database(db) => {
                let mine: Option<(i64, i64)> = sqlx::query_as(
                    "SELECT score, reached_at FROM tournament_scores WHERE tournament_id = $1 AND user_id = $2",
                )
                .bind(tournament)
                .bind(user)
                .fetch_optional(db.pool())
                .await?;
                let Some((score, reached_at)) = mine else { return Ok(None) };
                // Two range counts on the board's index (one OR over both would scan the board).
                let ahead: i64 = sqlx::query_scalar(
                    "SELECT CAST((SELECT COUNT(*) FROM tournament_scores WHERE tournament_id = $1 AND score > $2) + \
                     (SELECT COUNT(*) FROM tournament_scores WHERE tournament_id = $1 AND score = $2 \
                     AND (reached_at < $3 OR (reached_at = $3 AND user_id < $4))) AS BIGINT)",
                )
                .bind(tournament)
                .bind(score)
                .bind(reached_at)
                .bind(user)
                .fetch_one(db.pool())
                .await?;
                Ok(Some(Standing { user, score, rank: ahead + 1 }))
            }
        }
    }

    /// How many participants the board has.
    pub async fn len(self, tournament: i64) -> Result<i64, BoardError> {
        match self {
            Source::Redis(redis) => Ok(redis.board_len(&board_key(tournament)).await?),
            Source::Database(db) => Ok(sqlx::query_scalar(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM tournament_scores WHERE tournament_id = $1",
            )
            .bind(tournament)
            .fetch_one(db.pool())
            .await?),
        }
    }
}

/// Copies every participant of `tournament` from the database to Redis (no-op without Redis).
pub async fn rebuild(state: &AppState, tournament: i64) -> Result<(), BoardError> {
    let Some(redis) = state.coord().as_redis() else { return Ok(()) };
    let rows: Vec<(i64, i64, i64, i64)> =
        sqlx::query_as("SELECT user_id, score, reached_at, seq FROM tournament_scores WHERE tournament_id = $1")
            .bind(tournament)
            .fetch_all(state.db().pool())
            .await?;
    redis.board_drop(&board_key(tournament)).await?;
    for chunk in rows.chunks(1_000) {
        redis.board_put(&board_key(tournament), chunk).await?;
    }
    Ok(())
}

/// Forgets the Redis copy of a board (a closed or cancelled tournament).
pub async fn forget(state: &AppState, tournament: i64) -> Result<(), BoardError> {
    if let Some(redis) = state.coord().as_redis() {
        redis.board_drop(&board_key(tournament)).await?;
    }
    Ok(())
}

/// One pass of the syncer: drains up to [`SYNC_BATCH`] queued changes. Answers how many it
/// handled.
pub async fn sync(state: &AppState) -> Result<usize, BoardError> {
    let pool = state.db().pool();
    let queued: Vec<(i64, i64, i64)> =
        sqlx::query_as("SELECT id, tournament_id, user_id FROM board_changes ORDER BY id LIMIT $1")
            .bind(SYNC_BATCH)
            .fetch_all(pool)
            .await?;
    if queued.is_empty() {
        return Ok(0);
    }
    let mut by_tournament: std::collections::BTreeMap<i64, std::collections::BTreeSet<i64>> =
        std::collections::BTreeMap::new();
    for &(_, tournament, user) in &queued {
        by_tournament.entry(tournament).or_default().insert(user);
    }
    for (&tournament, users) in &by_tournament {
        if let Some(redis) = state.coord().as_redis() {
            let users: Vec<i64> = users.iter().copied().collect();
            for chunk in users.chunks(500) {
                let list = chunk.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
                // The ids are integers from the database, never input.
                let rows: Vec<(i64, i64, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                    "SELECT user_id, score, reached_at, seq FROM tournament_scores WHERE tournament_id = $1 AND user_id IN ({list})"
                )))
                .bind(tournament)
                .fetch_all(pool)
                .await?;
                redis.board_put(&board_key(tournament), &rows).await?;
            }
        }
        sqlx::query("UPDATE tournaments SET board_version = board_version + 1 WHERE id = $1")
            .bind(tournament)
            .execute(pool)
            .await?;
    }
    let ids: Vec<i64> = queued.iter().map(|q| q.0).collect();
    for chunk in ids.chunks(500) {
        let list = chunk.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM board_changes WHERE id IN ({list})")))
            .execute(pool)
            .await?;
    }
    Ok(queued.len())
}

/// The running tournaments (their boards are rebuilt in Redis when the syncer starts).
pub async fn running_ids(state: &AppState) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM tournaments WHERE status = 'scheduled' AND starts_at <= $1")
        .bind(now_ms())
        .fetch_all(state.db().pool())
        .await
}
