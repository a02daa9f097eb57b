//! The storage seam: one pool type for SQLite and PostgreSQL.
//!
//! Features write portable SQL through [`Db`] (`$1` placeholders, which both drivers accept;
//! integer columns are 64-bit, timestamps are unix milliseconds in `BIGINT`, flags are
//! `BIGINT` 0/1, and aggregates over `BIGINT` are `CAST(… AS BIGINT)` because PostgreSQL widens
//! `SUM` to `NUMERIC`). Anything that must differ between backends lives in this module only —
//! today: connection set-up and the migration folders. (The ledger writes its posting
//! statements once per backend, because they are the hot path of every bet; this module knows
//! nothing of it.)

pub mod group;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyPool, ConnectOptions, Connection, Executor, Transaction};
use std::str::FromStr;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// How long a pooled PostgreSQL connection may sit idle before it is pinged on acquire.
const IDLE_PING_AFTER: Duration = Duration::from_secs(30);

/// SQLite: how often the checkpointer ([`Db::spawn_checkpointer`]) copies the write-ahead log
/// back into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(50);

/// SQLite: the log's size in pages (4 KiB) past which the checkpointer, once it has copied all
/// of it, asks the writer to start it over ([`group::WalRestart`]). Each restart costs the
/// writer's lane a catch-up checkpoint with its `fsync` between two batches, and its next commits
/// rewrite the log's first pages, which may still be under writeback (the writer then waits for
/// the disk): 16,000 (64 MiB) against 4,000, aggregator pairs 4,736–5,723 against 4,595–5,148/s
/// back to back and 4,576–4,880 against 4,269–4,561/s kept when offered 5,000/s (`--only
/// wallet`, three alternated pairs, 2026-11-28).
const RESTART_PAGES: i64 = 16_000;

/// SQLite: the log's size in pages (4 KiB) past which the writer checkpoints by itself, in the
/// commit that crossed it: a backstop for a checkpointer that cannot keep up (a reader holding
/// an old snapshot keeps a passive checkpoint from finishing).
const WRITER_CHECKPOINT_PAGES: u32 = 64_000;

/// The SQLite writer's page cache (KiB): 8 MiB, four times SQLite's default, and smaller than
/// the 32 MiB it was. A commit after a B-tree rebalance that swapped two pages' numbers (SQLite
/// parks one under the pending-byte page's number, 262,145, while it swaps) walks the whole
/// cache to drop pages past the end of the database: with 32 MiB (8,000 pages) each such walk
/// took about a millisecond of the one writer's thread, some 80 times a second under the wallet's
/// load (`perf probe` on `pcache1TruncateUnsafe`, 2026-11-28). Same-machine A/B, alternated,
/// `--only wallet` on SQLite: house rounds back to back 9,847–10,081/s at 32 MiB, 10,832–10,856/s
/// at 8 MiB; aggregator pairs 4,812–4,921/s and 4,932–4,959/s.
const WRITER_CACHE_KIB: u32 = 8_192;

#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    /// Where transactions run. On SQLite one connection: the database has one writer anyway,
    /// and queueing in the pool wakes the next writer at once where SQLite's busy handler would
    /// sleep and retry. On PostgreSQL the same pool as reads.
    writer: AnyPool,
    backend: Backend,
    /// The group committer's lanes (see [`group`]): one on SQLite, several on PostgreSQL.
    lanes: Vec<group::Committer>,
    /// SQLite: the checkpointer's request to the writer's lane to start the log over.
    wal_restart: group::WalRestart,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

impl Db {
    /// Opens a pool. For SQLite the file (and its folder) is created when missing, and every
    /// connection gets WAL journaling, foreign keys and a busy timeout.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of_url(url);
        let url = match backend {
            Backend::Sqlite => sqlite_url(url)?,
            Backend::Postgres => url.to_owned(),
        };
        let options = AnyConnectOptions::from_str(&url)?.disable_statement_logging();
        let pool = Db::pool_options(backend, max_connections).connect_with(options.clone()).await?;
        let wal_restart = group::WalRestart::default();
        let (writer, lanes) = match backend {
            Backend::Sqlite => {
                let writer = Db::pool_options(backend, 1)
                    .after_connect(|conn, _meta| {
                        Box::pin(async move {
                            Db::sqlite_pragmas(conn).await?;
                            // The one writer runs every money batch: its pages stay in memory
                            // (the default cache is 2 MiB). Its write-ahead log is checkpointed by
                            // a reader connection beside it ([`Db::spawn_checkpointer`]), so
                            // the writer checkpoints only as a backstop, when the log has grown
                            // past WRITER_CHECKPOINT_PAGES anyway. Not more than WRITER_CACHE_KIB:
                            // see there.
                            conn.execute(sqlx::AssertSqlSafe(format!("PRAGMA cache_size = -{WRITER_CACHE_KIB}")))
                                .await?;
                            // `temp_store` stays at its default: MEMORY would keep statement
                            // journals in 1 KiB chunks instead of the one chunk of
                            // `croupier_sqlite_vfs::STATEMENT_JOURNAL_SPILL` (see there).
                            conn.execute(sqlx::AssertSqlSafe(format!(
                                "PRAGMA wal_autocheckpoint = {WRITER_CHECKPOINT_PAGES}"
                            )))
                            .await?;
                            Ok(())
                        })
                    })
                    .connect_with(options)
                    .await?;
                let restart = Some(wal_restart.clone());
                let lane =
                    group::Committer::start(writer.clone(), "BEGIN IMMEDIATE", group::SQLITE_MAX_BATCH, restart, true)?;
                (writer, vec![lane])
            }
            Backend::Postgres => {
                let lanes = (0..group::postgres_lanes(max_connections))
                    .map(|_| group::Committer::start(pool.clone(), "BEGIN", group::MAX_BATCH, None, false))
                    .collect::<std::io::Result<_>>()?;
                (pool.clone(), lanes)
            }
        };
        Ok(Db { pool, writer, backend, lanes, wal_restart })
    }

    fn pool_options(backend: Backend, max_connections: u32) -> AnyPoolOptions {
        AnyPoolOptions::new()
            .max_connections(max_connections)
            .min_connections(0)
            .acquire_timeout(Duration::from_secs(10))
            // The default pings every connection on every acquire: one more round trip per
            // transaction, which on the ledger's hot path costs as much as a statement. SQLite is
            // a local file and needs no ping; a PostgreSQL connection is pinged only when it sat
            // idle long enough for a server restart or a proxy timeout to have dropped it.
            .test_before_acquire(false)
            .before_acquire(move |conn, meta| {
                Box::pin(async move {
                    if backend == Backend::Postgres && meta.idle_for > IDLE_PING_AFTER {
                        conn.ping().await?;
                    }
                    Ok(true)
                })
            })
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        Db::sqlite_pragmas(conn).await?;
                    }
                    Ok(())
                })
            })
    }

    /// Every SQLite connection's settings.
    async fn sqlite_pragmas(conn: &mut sqlx::AnyConnection) -> Result<(), sqlx::Error> {
        conn.execute("PRAGMA journal_mode = WAL").await?;
        conn.execute("PRAGMA synchronous = NORMAL").await?;
        conn.execute("PRAGMA foreign_keys = ON").await?;
        conn.execute("PRAGMA busy_timeout = 10000").await?;
        Ok(())
    }

    /// Applies the backend's migrations that have not run yet.
    pub async fn migrate(&self) -> Result<(), sqlx::migrate::MigrateError> {
        match self.backend {
            Backend::Sqlite => SQLITE_MIGRATIONS.run(&self.pool).await,
            Backend::Postgres => POSTGRES_MIGRATIONS.run(&self.pool).await,
        }
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// One database transaction: every change of one request goes through one of these.
    /// On SQLite it takes the write lock at once (`BEGIN IMMEDIATE`): a deferred transaction that
    /// reads and then writes cannot wait for a busy writer and would fail with `SQLITE_BUSY`.
    pub async fn begin(&self) -> Result<Transaction<'static, Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.writer.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.writer.begin().await,
        }
    }

    /// Runs `job` — one change, re-runnable — in a transaction and answers its result, batched
    /// by the group committer with other callers' jobs into one transaction (see [`group`]). The
    /// job rolls back with its error. `player` is the player whose money the job moves: it picks
    /// the lane on PostgreSQL, where a job must only touch that player's rows and the house
    /// (whose shard the ledger picks by the same player). Never call it while holding a
    /// transaction of [`Db::begin`]: on SQLite that transaction holds the one writer connection
    /// the committer needs.
    pub async fn group<T, E>(&self, player: i64, job: group::Job<T, E>) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<sqlx::Error> + Send + 'static,
    {
        match self.lane(player) {
            Some(committer) => committer.run(job).await,
            None => Err(E::from(sqlx::Error::PoolClosed)),
        }
    }

    /// Queues `item`, a change of a kind the committer can merge with its neighbours (see
    /// [`group::Batchable`]), on the lane of `player`, and answers its result.
    pub async fn submit<B: group::Batchable>(&self, player: i64, item: B) -> Result<B::Output, B::Error> {
        match self.lane(player) {
            Some(committer) => committer.submit(item).await,
            None => Err(B::Error::from(sqlx::Error::PoolClosed)),
        }
    }

    /// SQLite: asks the writer's lane to copy the write-ahead log's last commits after its
    /// current batch, so the next batch starts the log over ([`group::WalRestart`]); the
    /// checkpointer asks once it has copied a long log. Nothing on PostgreSQL.
    pub fn ask_wal_restart(&self) {
        self.wal_restart.ask();
    }

    /// The lane of `player`: `player mod lanes`.
    fn lane(&self, player: i64) -> Option<&group::Committer> {
        let lanes = i64::try_from(self.lanes.len()).unwrap_or(1).max(1);
        self.lanes.get(usize::try_from(player.rem_euclid(lanes)).unwrap_or(0))
    }

    /// How many group-commit lanes run in parallel (1 on SQLite).
    pub fn lanes(&self) -> usize {
        self.lanes.len()
    }

    /// Serialises changes to one player's money-related rows inside `conn`'s transaction. SQLite
    /// transactions already hold the write lock (`BEGIN IMMEDIATE`); PostgreSQL locks the row.
    pub async fn lock_user(&self, conn: &mut sqlx::AnyConnection, user_id: i64) -> Result<(), sqlx::Error> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT id FROM users WHERE id = $1 FOR UPDATE").bind(user_id).execute(conn).await?;
        }
        Ok(())
    }

    /// Whether the database answers a query (readiness).
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        sqlx::query("SELECT 1").execute(&self.pool).await.map(|_| ())
    }

    /// Connections open and idle, for `/metrics`.
    pub fn pool_stats(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
    }

    /// SQLite: starts the checkpointer, which every [`CHECKPOINT_EVERY`] copies the write-ahead
    /// log back into the database file from a reader connection (`wal_checkpoint(PASSIVE)`: it
    /// takes no lock a writer or a reader waits for, and copies what no reader still needs).
    /// Before, the one writer did it in whichever commit took the log past 4,000 pages, and every
    /// group-commit batch queued behind that commit waited for the copy and its fsync: those were
    /// the wallet's slowest calls.
    ///
    /// The log starts over only at a write that begins with all of it copied, which under a
    /// steady stream of commits never happens by itself: every commit lands while the checkpointer
    /// copies the ones before. The log then grew to the writer's backstop (then 16,000 pages,
    /// 64 MiB) and the writer's own checkpoint copied everything the checkpointer had not reached
    /// yet, a stall of its batch. So once a pass has copied a log past [`RESTART_PAGES`] to its end, the
    /// checkpointer asks the writer's lane ([`group::WalRestart`]) to copy the few commits since,
    /// between two batches, and the next batch starts the log over. It stops when the pool
    /// closes. None on PostgreSQL.
    pub fn spawn_checkpointer(&self) -> Option<tokio::task::JoinHandle<()>> {
        if self.backend != Backend::Sqlite {
            return None;
        }
        let (pool, restart) = (self.pool.clone(), self.wal_restart.clone());
        Some(tokio::spawn(async move {
            let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut told = false;
            while !pool.is_closed() {
                tick.tick().await;
                let pass: Result<(i64, i64, i64), _> =
                    sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(&pool).await;
                match pass {
                    Ok((_busy, log, copied)) => {
                        told = false;
                        if log >= RESTART_PAGES && copied == log {
                            restart.ask();
                        }
                    }
                    Err(e) if !pool.is_closed() && !told => {
                        // Said once per run of failures: the writer's backstop still checkpoints.
                        tracing::warn!(error = %e, "write-ahead log checkpoint failed");
                        told = true;
                    }
                    Err(_) => {}
                }
            }
        }))
    }

    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}

/// The file of a SQLite URL (`sqlite://data/x.db?…` → `data/x.db`); none for PostgreSQL or an
/// in-memory database.
pub fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    if Backend::of_url(url) != Backend::Sqlite {
        return None;
    }
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
    let path = rest.split_once('?').map_or(rest, |(p, _)| p);
    (path != ":memory:" && !path.is_empty()).then(|| std::path::PathBuf::from(path))
}

/// Adds `mode=rwc` (create when missing) and creates the database file's folder.
fn sqlite_url(url: &str) -> Result<String, sqlx::Error> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path != ":memory:"
        && let Some(parent) = std::path::Path::new(path).parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent)
            .map_err(|e| sqlx::Error::Configuration(format!("cannot create {}: {e}", parent.display()).into()))?;
    }
    let mode = if query.split('&').any(|p| p.starts_with("mode=")) { "" } else { "mode=rwc" };
    // The VFS that writes each commit's log frames in one call (`croupier_sqlite_vfs`), unless
    // the URL names one (`vfs=unix`: SQLite's own, each frame written by itself).
    let vfs = if query.split('&').any(|p| p.starts_with("vfs=")) {
        String::new()
    } else {
        match croupier_sqlite_vfs::register() {
            Ok(()) => format!("vfs={}", croupier_sqlite_vfs::NAME),
            Err(e) => {
                tracing::warn!(error = %e, "SQLite's log-gathering VFS is not available; the default writes each frame");
                String::new()
            }
        }
    };
    let query = [query, mode, &vfs].iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>().join("&");
    Ok(format!("sqlite://{path}?{query}"))
}

/// Whether `e` is the database refusing a row that a unique index already has (both backends).
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error().is_some_and(|d| d.is_unique_violation())
}

/// The current time as unix milliseconds, the one timestamp representation in the database.
pub fn now_ms() -> i64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_are_opened_for_creation() {
        let dir = std::env::temp_dir().join(format!("croupier-url-{}", std::process::id()));
        let url = format!("sqlite://{}/x.db", dir.display());
        assert_eq!(sqlite_url(&url).unwrap(), format!("sqlite://{}/x.db?mode=rwc&vfs=croupier-wal", dir.display()));
        assert!(dir.is_dir());
        assert_eq!(sqlite_url("sqlite::memory:").unwrap(), "sqlite://:memory:?mode=rwc&vfs=croupier-wal");
        assert_eq!(
            sqlite_url("sqlite://:memory:?mode=memory").unwrap(),
            "sqlite://:memory:?mode=memory&vfs=croupier-wal"
        );
        // A VFS named in the URL is kept.
        assert_eq!(sqlite_url("sqlite://:memory:?vfs=unix").unwrap(), "sqlite://:memory:?vfs=unix&mode=rwc");
        let _ = std::fs::remove_dir_all(dir);
    }

    /// SQLite's one lane runs on the writer connection with its settings (a large page cache; the
    /// default `temp_store`, so statement journals stay in memory up to the spill size set before
    /// SQLite starts, in one chunk), and answers every job.
    #[tokio::test]
    async fn sqlite_lane_runs_on_the_writer_with_its_settings() {
        let dir = std::env::temp_dir().join(format!("croupier-lane-{}", std::process::id()));
        let db = Db::connect(&format!("sqlite://{}/lane.db", dir.display()), 4).await.unwrap();
        let seen = db
            .group(
                0,
                group::job(|conn| {
                    Box::pin(async move {
                        let temp_store: i64 = sqlx::query_scalar("PRAGMA temp_store").fetch_one(&mut *conn).await?;
                        let cache: i64 = sqlx::query_scalar("PRAGMA cache_size").fetch_one(&mut *conn).await?;
                        Ok::<_, sqlx::Error>((temp_store, cache))
                    })
                }),
            )
            .await
            .unwrap();
        assert_eq!(seen, (0, -i64::from(WRITER_CACHE_KIB)));
        // Many callers at once all get their own answer.
        let answers = futures::future::join_all((0..50_i64).map(|i| {
            db.group(
                0,
                group::job(move |conn| {
                    Box::pin(async move { sqlx::query_scalar::<_, i64>("SELECT $1 * 2").bind(i).fetch_one(conn).await })
                }),
            )
        }))
        .await;
        assert_eq!(
            answers.into_iter().map(Result::unwrap).collect::<Vec<i64>>(),
            (0..50).map(|i| i * 2).collect::<Vec<_>>()
        );
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// The lane keeps its connection from batch to batch while work is queued, but gives it back
    /// after `group::KEEP_BATCHES` in a row: a transaction outside the lane (on SQLite the same
    /// one writer connection) gets its turn while the lane is still busy, not after.
    #[tokio::test]
    async fn a_busy_lane_still_lets_other_writers_in() {
        let dir = std::env::temp_dir().join(format!("croupier-lane-turn-{}", std::process::id()));
        let db = Db::connect(&format!("sqlite://{}/lane.db", dir.display()), 4).await.unwrap();
        // More callers than a batch takes keep the queue from ever running dry between batches.
        let (callers, each) = (3 * group::SQLITE_MAX_BATCH, 40);
        let completed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let load = {
            let db = db.clone();
            let completed = completed.clone();
            tokio::spawn(async move {
                futures::future::join_all((0..callers).map(|_| {
                    let db = db.clone();
                    let completed = completed.clone();
                    async move {
                        for _ in 0..each {
                            db.group(
                                0,
                                group::job(|conn| {
                                    Box::pin(
                                        async move { sqlx::query_scalar::<_, i64>("SELECT 1").fetch_one(conn).await },
                                    )
                                }),
                            )
                            .await
                            .unwrap();
                            completed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                    }
                }))
                .await;
            })
        };
        while completed.load(std::sync::atomic::Ordering::SeqCst) < callers {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let mut tx = db.begin().await.unwrap();
        sqlx::query("CREATE TABLE IF NOT EXISTS turn (x BIGINT)").execute(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
        let at = completed.load(std::sync::atomic::Ordering::SeqCst);
        assert!(
            at < callers * each / 2,
            "an outside transaction waited for the lane's whole load ({at} of {} jobs done)",
            callers * each
        );
        load.await.unwrap();
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }
}
