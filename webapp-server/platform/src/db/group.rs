//! Group commit: many small write transactions from many tasks share one database transaction.
//!
//! On the hot path (a bet, a win) the cost of a transaction is mostly its `BEGIN` and `COMMIT`
//! round trips and the commit's flush to disk, not the work inside. So
//! [`Db::group`](super::Db::group) queues a *job* — an async function of a connection that does
//! one change — on a *lane*, and the lane's committer task runs whatever jobs are queued back to
//! back inside a single transaction, commits once and answers each caller with its own result.
//!
//! Lanes: SQLite has one writer, so it has one lane, on a thread of its own
//! ([`Committer::start`]). PostgreSQL has [`postgres_lanes`] of them, each running its batches on
//! a connection of the pool, in parallel. A job is queued on the lane of the player whose money it
//! moves (`player mod lanes`), and the ledger puts a player's house
//! postings on house shard `player mod 16` (`ledger::HOUSE_SHARDS`); the number of lanes divides
//! 16, so two lanes never touch the same player row or house shard and their batches cannot wait
//! for one another. Every change that moves money runs here — the wallet's calls, house rounds,
//! deposits finishing, withdrawals, fun-money top-ups, guest sweeps — so no transaction outside
//! the committer holds a ledger row a batch needs. Outside transactions that lock a player's
//! `users` row (a deposit's request, a seed change) take nothing a batch holds after it, so they
//! may wait for a batch but never deadlock with one.
//!
//! Changes of a [`Batchable`] kind (the ledger's bare movements of money) are queued as data,
//! not as functions ([`Db::submit`](super::Db::submit)): a lane runs each run of neighbours of
//! one kind in its batch with one [`Batchable::run_many`] call — one round trip for the whole
//! run — which must refuse an item without writing anything, so a refusal never rolls its batch
//! back. This module knows no kind of change; the ledger implements [`Batchable`].
//!
//! Isolation between the jobs of a batch: a job that fails may have written half of its change
//! (a wallet bet opens its round before the ledger refuses the money), so on a failure the whole
//! batch is rolled back; the failing job is set aside and the others are run together again, up
//! to [`MAX_RETRIES`] times, after which every remaining job runs alone. Each job set aside then
//! runs alone, in its own transaction, so it fails alone and the others succeed as they would
//! have — and one player who keeps betting money they do not have cannot turn everybody's batches
//! into single transactions. Jobs must therefore be re-runnable (they are functions, `Fn`, of the
//! connection, and nothing they did survives a rollback). Within a batch, a later job sees an
//! earlier one's writes, exactly as if it had committed first, so idempotency keys and balances
//! behave as in serial execution.

use futures::future::BoxFuture;
use sqlx::pool::PoolConnection;
use sqlx::{AnyConnection, AnyPool, Connection};
use std::any::{Any, TypeId};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Most jobs in one transaction on a PostgreSQL lane (several lanes share the load).
pub const MAX_BATCH: usize = 64;

/// Most jobs in one transaction on SQLite's one lane. Every batch writes the pages it changed to
/// the write-ahead log, and many of those are one per player (their balance, seed, loyalty and
/// index pages), whatever the batch's size: a batch that holds every waiting player's round
/// writes each such page once for all of them. 256 against 64: 4,275 and 3,977 house rounds/s
/// against 4,054 and 3,632, p99 92–109 ms against 102–107 ms (`make bench`'s wallet rows, 200
/// players, alternated runs, 2026-11-27).
pub const SQLITE_MAX_BATCH: usize = 256;

/// Most batches in a row a lane runs on one connection before giving it back to the pool
/// ([`commit_loop`]).
pub const KEEP_BATCHES: usize = 8;

/// How many failing jobs a batch sets aside before running every remaining job alone.
pub const MAX_RETRIES: usize = 3;

/// PostgreSQL's lanes for a pool of `max_connections`: the largest power of two (so it divides
/// the 16 house shards) that leaves at least half of the pool to readers and other writers.
pub fn postgres_lanes(max_connections: u32) -> usize {
    let half = (max_connections / 2).clamp(1, 16);
    1 << (31 - half.leading_zeros())
}

/// One change: re-runnable, given the connection of the transaction it runs in.
pub type Job<T, E> = Arc<dyn for<'c> Fn(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, E>> + Send + Sync>;

/// Makes a [`Job`] of a closure (the closure's higher-ranked signature is inferred here).
pub fn job<T, E, F>(f: F) -> Job<T, E>
where
    F: for<'c> Fn(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, E>> + Send + Sync + 'static,
{
    Arc::new(f)
}

/// A kind of change that a lane can run many of in one call when they are queued next to each
/// other. [`Batchable::run_many`] must refuse an item without writing anything (its refusal is
/// its result, and the batch goes on); its own `Err` means the whole call failed.
pub trait Batchable: Send + Sync + 'static {
    type Output: Send + 'static;
    type Error: From<sqlx::Error> + std::fmt::Display + Send + 'static;
    /// Runs one item (when its batch runs its jobs one by one).
    fn run_one<'a>(&'a self, conn: &'a mut AnyConnection) -> BoxFuture<'a, Result<Self::Output, Self::Error>>;
    /// Runs `items` in order in one call; one result per item.
    #[allow(clippy::type_complexity)]
    fn run_many<'a>(
        conn: &'a mut AnyConnection,
        items: &'a [&'a Self],
    ) -> BoxFuture<'a, Result<Vec<Result<Self::Output, Self::Error>>, Self::Error>>;
}

/// A queued job with its caller's reply, its types erased so one queue carries every kind.
trait Queued: Send + Any {
    /// Runs the job once on `conn`; answers whether it succeeded (its result is kept).
    fn run<'c>(&'c mut self, conn: &'c mut AnyConnection) -> BoxFuture<'c, bool>;
    /// The transaction the job ran in failed to commit: that is its result.
    fn fail(&mut self, error: sqlx::Error);
    /// Sends the kept result to the caller.
    fn answer(self: Box<Self>);
    /// The [`Batchable`] kind of the job, when it has one: neighbours of one kind run together.
    fn kind(&self) -> Option<TypeId> {
        None
    }
    /// For a job of a [`Batchable`] kind: the function that runs a run of its neighbours of the
    /// same kind (itself included) in one call.
    fn runner(&self) -> Option<Runner> {
        None
    }
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// Runs a run of queued jobs of one [`Batchable`] kind in one call; answers whether that call
/// succeeded (each job keeps its own result).
type Runner = for<'c, 'x> fn(&'c mut AnyConnection, &'c mut [&'x mut Box<dyn Queued>]) -> BoxFuture<'c, bool>;

/// [`Runner`] of the kind `B`.
fn run_batched<'c, B: Batchable>(
    conn: &'c mut AnyConnection,
    run: &'c mut [&mut Box<dyn Queued>],
) -> BoxFuture<'c, bool> {
    Box::pin(async move {
        let results = {
            let items: Vec<&B> =
                run.iter().filter_map(|job| job.as_any().downcast_ref::<Batched<B>>()).map(|b| &b.item).collect();
            if items.len() != run.len() {
                return false;
            }
            B::run_many(conn, &items).await
        };
        match results {
            Ok(results) => {
                for (job, result) in run.iter_mut().zip(results) {
                    if let Some(batched) = job.as_any_mut().downcast_mut::<Batched<B>>() {
                        batched.result = Some(result);
                    }
                }
                true
            }
            Err(e) => {
                tracing::warn!(error = %e, items = run.len(), "merged changes failed; setting the first aside");
                false
            }
        }
    })
}

/// A queued [`Batchable`] item.
struct Batched<B: Batchable> {
    item: B,
    result: Option<Result<B::Output, B::Error>>,
    reply: oneshot::Sender<Result<B::Output, B::Error>>,
}

impl<B: Batchable> Queued for Batched<B> {
    fn run<'c>(&'c mut self, conn: &'c mut AnyConnection) -> BoxFuture<'c, bool> {
        Box::pin(async move {
            let result = self.item.run_one(conn).await;
            let ok = result.is_ok();
            self.result = Some(result);
            ok
        })
    }

    fn fail(&mut self, error: sqlx::Error) {
        self.result = Some(Err(B::Error::from(error)));
    }

    fn answer(self: Box<Self>) {
        let this = *self;
        if let Some(result) = this.result {
            let _ = this.reply.send(result);
        }
    }

    fn kind(&self) -> Option<TypeId> {
        Some(TypeId::of::<B>())
    }

    fn runner(&self) -> Option<Runner> {
        Some(run_batched::<B>)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

struct Pending<T, E> {
    job: Job<T, E>,
    result: Option<Result<T, E>>,
    reply: oneshot::Sender<Result<T, E>>,
}

impl<T: Send + 'static, E: From<sqlx::Error> + Send + 'static> Queued for Pending<T, E> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn run<'c>(&'c mut self, conn: &'c mut AnyConnection) -> BoxFuture<'c, bool> {
        Box::pin(async move {
            let result = (self.job)(conn).await;
            let ok = result.is_ok();
            self.result = Some(result);
            ok
        })
    }

    fn fail(&mut self, error: sqlx::Error) {
        self.result = Some(Err(E::from(error)));
    }

    fn answer(self: Box<Self>) {
        let this = *self;
        if let Some(result) = this.result {
            // The caller may have gone away (its request was cancelled): nothing to tell.
            let _ = this.reply.send(result);
        }
    }
}

/// The queue's sending end (cloned into every [`Db`](super::Db) handle).
#[derive(Clone)]
pub struct Committer {
    queue: mpsc::Sender<Box<dyn Queued>>,
}

impl Committer {
    /// Starts a lane's committer task: its batches of at most `max_batch` jobs run on connections
    /// of `writer` (SQLite's one-connection writer pool, or PostgreSQL's pool) in transactions
    /// opened with `begin`.
    /// A run of queued [`Committer::submit`]s of one kind in a batch runs in one call.
    /// On SQLite `wal_restart` is the checkpointer's request to start the log over.
    ///
    /// With `own_thread` (SQLite's one lane) the committer runs on a thread of its own, in a
    /// runtime of its own, and hands its answers to the caller's runtime. Every statement of a
    /// batch goes to the writer connection's thread and back, and its answer wakes the lane from
    /// that thread: a task of the shared runtime woken from outside it waits in the runtime's
    /// global queue behind the HTTP tasks that a busy worker runs first, while the one writer, whose
    /// next statement the lane has not sent yet, sleeps. On its own thread the lane is woken
    /// directly. Nine alternated pairs of `--only wallet` runs on SQLite (2026-11-29, one build,
    /// switched): aggregator pairs 5,359/s against 5,106/s back to back on average (runs move
    /// ±10 %), and when offered 5,000/s a lower p99 in seven pairs of nine (median 193 ms against
    /// 379 ms).
    pub fn start(
        writer: AnyPool,
        begin: &'static str,
        max_batch: usize,
        wal_restart: Option<WalRestart>,
        own_thread: bool,
    ) -> std::io::Result<Committer> {
        let (queue, jobs) = mpsc::channel(4 * max_batch);
        let answers = own_thread.then(tokio::runtime::Handle::current);
        let lane = Lane { writer, begin, max_batch, wal_restart, answers };
        if own_thread {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            std::thread::Builder::new()
                .name("croupier-lane".into())
                .spawn(move || runtime.block_on(commit_loop(lane, jobs)))?;
        } else {
            tokio::spawn(commit_loop(lane, jobs));
        }
        Ok(Committer { queue })
    }

    /// Queues an item of a [`Batchable`] kind: its result is its own, whether it ran alone or
    /// with its neighbours.
    pub async fn submit<B: Batchable>(&self, item: B) -> Result<B::Output, B::Error> {
        let (reply, answer) = oneshot::channel();
        let batched: Box<dyn Queued> = Box::new(Batched { item, result: None, reply });
        self.queue.send(batched).await.map_err(|_| B::Error::from(sqlx::Error::PoolClosed))?;
        answer.await.map_err(|_| B::Error::from(sqlx::Error::PoolClosed))?
    }

    pub async fn run<T, E>(&self, job: Job<T, E>) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<sqlx::Error> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let pending: Box<dyn Queued> = Box::new(Pending { job, result: None, reply });
        self.queue.send(pending).await.map_err(|_| E::from(sqlx::Error::PoolClosed))?;
        answer.await.map_err(|_| E::from(sqlx::Error::PoolClosed))?
    }
}

/// SQLite: the checkpointer's request that the writer's lane start the write-ahead log over
/// (see `Db::spawn_checkpointer`). Between two batches the lane then runs a passive checkpoint on
/// the writer's connection, which copies the commits made since the checkpointer's pass (a few
/// batches' pages) and leaves the whole log copied, so the next batch's `BEGIN IMMEDIATE` writes
/// from the log's start (when no reader still holds an old snapshot).
#[derive(Clone, Default)]
pub struct WalRestart(Arc<std::sync::atomic::AtomicBool>);

impl WalRestart {
    pub fn ask(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether a restart was asked for since the last call.
    fn take(&self) -> bool {
        self.0.swap(false, std::sync::atomic::Ordering::Relaxed)
    }
}

/// How a lane runs its batches.
struct Lane {
    writer: AnyPool,
    begin: &'static str,
    max_batch: usize,
    wal_restart: Option<WalRestart>,
    /// A lane on a thread of its own answers its callers from a task of their runtime, so it can
    /// start its next batch at once (answering wakes every caller: ~0.4 ms of a ~9 ms batch).
    answers: Option<tokio::runtime::Handle>,
}

/// Microseconds of `d`, for the lane's trace.
pub fn micros(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// A lane's loop. At `trace` level (`CROUPIER_LOG=…,croupier_platform::db::group=trace`) each
/// batch says its size, how long the lane waited for it (`idle_us`), for the writer connection
/// (`acquired_us`), to run and commit it (`ran_us`) and to answer (`busy_us`): the figures behind
/// README's account of the wallet's path. (A lane on its own thread hands its answers over, so
/// its `busy_us` is `ran_us` and the hand-over.)
async fn commit_loop(lane: Lane, mut jobs: mpsc::Receiver<Box<dyn Queued>>) {
    let mut batch: Vec<Box<dyn Queued>> = Vec::with_capacity(lane.max_batch);
    let mut idle_since = std::time::Instant::now();
    // The writer connection kept from the batch before, and for how many batches in a row.
    let mut kept: Option<PoolConnection<sqlx::Any>> = None;
    let mut kept_for = 0_usize;
    while let Some(first) = jobs.recv().await {
        let started = std::time::Instant::now();
        batch.push(first);
        while batch.len() < lane.max_batch {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let mut conn = match kept.take() {
            Some(conn) => Ok(conn),
            None => {
                kept_for = 0;
                lane.writer.acquire().await
            }
        };
        let acquired_us = micros(started.elapsed());
        let clean = match &mut conn {
            Ok(conn) => run_batch(conn, &lane, &mut batch).await,
            Err(e) => {
                let message = e.to_string();
                for job in &mut batch {
                    job.fail(sqlx::Error::Protocol(format!("no writer connection: {message}")));
                }
                false
            }
        };
        let ran_us = micros(started.elapsed());
        let size = batch.len();
        let done = std::mem::take(&mut batch);
        let answer = move || done.into_iter().for_each(|job| job.answer());
        match &lane.answers {
            Some(runtime) => drop(runtime.spawn(async move { answer() })),
            None => answer(),
        }
        tracing::trace!(
            jobs = size,
            idle_us = micros(started.duration_since(idle_since)),
            busy_us = micros(started.elapsed()),
            acquired_us,
            ran_us,
            "batch"
        );
        idle_since = std::time::Instant::now();
        // After the answers: the copy is the next batch's wait, not this one's.
        if let Ok(conn) = &mut conn
            && lane.wal_restart.as_ref().is_some_and(WalRestart::take)
            && let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&mut **conn).await
        {
            tracing::debug!(error = %e, "the writer's catch-up checkpoint failed");
        }
        // With more work queued, the next batch runs on the same connection: giving it back to
        // the pool and taking it again costs the pool's release check (a ping through the
        // connection's thread, in a task of its own) and the wake-ups between them, 0.8 ms of a
        // ~12 ms batch under the aggregator's load against 0.1 ms kept (the lane's trace,
        // 2026-11-29). At
        // most [`KEEP_BATCHES`] in a row, so the pool's other users (on SQLite the one writer
        // connection is also every other transaction's) wait for a few batches at most; and only
        // after a batch whose statements all answered, so a broken connection goes back to the
        // pool's check.
        if let Ok(conn) = conn {
            kept_for += 1;
            if clean && kept_for < KEEP_BATCHES && !jobs.is_empty() {
                kept = Some(conn);
            }
        }
    }
}

/// All of `batch` in one transaction; a failing job is set aside and the rest run together again
/// (at most [`MAX_RETRIES`] times); the jobs set aside, and the rest after too many failures,
/// each run again in a transaction of their own.
/// Answers whether every transaction's statements answered (no database error, whatever the
/// jobs' own results).
async fn run_batch(conn: &mut AnyConnection, lane: &Lane, batch: &mut [Box<dyn Queued>]) -> bool {
    let mut clean = true;
    let mut together_ones: Vec<&mut Box<dyn Queued>> = batch.iter_mut().collect();
    let mut alone_ones: Vec<&mut Box<dyn Queued>> = Vec::new();
    while together_ones.len() > 1 && alone_ones.len() < MAX_RETRIES {
        match together(conn, lane, &mut together_ones).await {
            Ok(None) => break,
            Ok(Some(failed)) => alone_ones.push(together_ones.remove(failed)),
            Err(e) => {
                clean = false;
                tracing::warn!(error = %e, jobs = together_ones.len(), "group commit failed; running the jobs one by one");
                alone_ones.append(&mut together_ones);
            }
        }
    }
    if alone_ones.len() >= MAX_RETRIES || together_ones.len() == 1 {
        alone_ones.append(&mut together_ones);
    }
    for job in alone_ones {
        if let Err(e) = alone(conn, lane.begin, job.as_mut()).await {
            clean = false;
            job.fail(e);
        }
    }
    clean
}

/// Runs `jobs` in one transaction: `Ok(None)` when every job succeeded and it committed,
/// `Ok(Some(i))` when job `i` failed (everything was rolled back). Each run of neighbours of one
/// [`Batchable`] kind is one [`Batchable::run_many`] call; a refused item wrote nothing, so it
/// keeps its refusal as its result and the others go on.
async fn together(
    conn: &mut AnyConnection,
    lane: &Lane,
    jobs: &mut [&mut Box<dyn Queued>],
) -> Result<Option<usize>, sqlx::Error> {
    let mut tx = conn.begin_with(lane.begin).await?;
    let mut i = 0;
    while i < jobs.len() {
        if let (Some(kind), Some(runner)) = (jobs[i].kind(), jobs[i].runner()) {
            let run = jobs[i..].iter().take_while(|job| job.kind() == Some(kind)).count();
            if !runner(&mut tx, &mut jobs[i..i + run]).await {
                tx.rollback().await?;
                return Ok(Some(i));
            }
            i += run;
            continue;
        }
        if !jobs[i].run(&mut tx).await {
            tx.rollback().await?;
            return Ok(Some(i));
        }
        i += 1;
    }
    tx.commit().await?;
    Ok(None)
}

async fn alone(conn: &mut AnyConnection, begin: &'static str, job: &mut dyn Queued) -> Result<(), sqlx::Error> {
    let mut tx = conn.begin_with(begin).await?;
    if job.run(&mut tx).await { tx.commit().await } else { tx.rollback().await }
}

#[cfg(test)]
mod tests {
    #[test]
    fn postgres_lanes_divide_the_house_shards_and_leave_half_the_pool() {
        for (pool, lanes) in
            [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (8, 4), (10, 4), (16, 8), (20, 8), (32, 16), (100, 16)]
        {
            assert_eq!(super::postgres_lanes(pool), lanes, "pool of {pool}");
            assert_eq!(16 % lanes, 0);
        }
    }
}
