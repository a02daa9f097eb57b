//! Group commit: many small write transactions from many tasks share one database transaction.
//!
//! On the hot path (a bet, a win) the cost of a transaction is mostly its `BEGIN` and `COMMIT`
//! round trips and the commit's flush to disk, not the work inside. So
//! [`Db::group`](super::Db::group) queues a *job* — an async function of a connection that does
//! one change — on a *lane*, and the lane's committer task runs whatever jobs are queued back to
//! back inside a single transaction, commits once and answers each caller with its own result.
//!
//! Lanes: SQLite has one writer, so it has one lane. PostgreSQL has [`postgres_lanes`] of them,
//! each running its batches on a connection of the pool, in parallel. A job is queued on the lane
//! of the player whose money it moves (`player mod lanes`), and the ledger puts a player's house
//! postings on house shard `player mod 16` (`ledger::HOUSE_SHARDS`); the number of lanes divides
//! 16, so two lanes never touch the same player row or house shard and their batches cannot wait
//! for one another. Every change that moves money runs here — the wallet's calls, house rounds,
//! deposits finishing, withdrawals, fun-money top-ups, guest sweeps — so no transaction outside
//! the committer holds a ledger row a batch needs. Outside transactions that lock a player's
//! `users` row (a deposit's request, a seed change) take nothing a batch holds after it, so they
//! may wait for a batch but never deadlock with one.
//!
//! Bare movements of money ([`Db::post`](super::Db::post)) are queued as data, not as functions:
//! a lane posts each run of them in its batch with one `ledger::post_many` call, one round trip
//! for the whole run, which refuses a movement without writing anything, so a refusal never
//! rolls its batch back.
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

use crate::ledger::{self, Entry, LedgerError, OwnedEntry, Posted};
use futures::future::BoxFuture;
use sqlx::{AnyConnection, AnyPool, Connection};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Most jobs in one transaction.
pub const MAX_BATCH: usize = 64;

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

/// A queued job with its caller's reply, its types erased so one queue carries every kind.
trait Queued: Send {
    /// Runs the job once on `conn`; answers whether it succeeded (its result is kept).
    fn run<'c>(&'c mut self, conn: &'c mut AnyConnection) -> BoxFuture<'c, bool>;
    /// The transaction the job ran in failed to commit: that is its result.
    fn fail(&mut self, error: sqlx::Error);
    /// Sends the kept result to the caller.
    fn answer(self: Box<Self>);
    /// A bare ledger movement ([`Committer::post`]): a lane posts a run of these with one
    /// `ledger::post_many` call instead of running them one by one.
    fn entry(&self) -> Option<Entry<'_>> {
        None
    }
    /// The movement's result from that call (a refused movement wrote nothing): kept as its result.
    fn posted(&mut self, _result: Result<Posted, LedgerError>) {}
}

/// A queued [`Committer::post`].
struct Movement {
    entry: OwnedEntry,
    result: Option<Result<Posted, LedgerError>>,
    reply: oneshot::Sender<Result<Posted, LedgerError>>,
}

impl Queued for Movement {
    fn run<'c>(&'c mut self, conn: &'c mut AnyConnection) -> BoxFuture<'c, bool> {
        Box::pin(async move {
            let result = ledger::post(conn, &self.entry.entry()).await;
            let ok = result.is_ok();
            self.result = Some(result);
            ok
        })
    }

    fn fail(&mut self, error: sqlx::Error) {
        self.result = Some(Err(LedgerError::Db(error)));
    }

    fn answer(self: Box<Self>) {
        if let Some(result) = self.result {
            let _ = self.reply.send(result);
        }
    }

    fn entry(&self) -> Option<Entry<'_>> {
        Some(self.entry.entry())
    }

    fn posted(&mut self, result: Result<Posted, LedgerError>) {
        self.result = Some(result);
    }
}

struct Pending<T, E> {
    job: Job<T, E>,
    result: Option<Result<T, E>>,
    reply: oneshot::Sender<Result<T, E>>,
}

impl<T: Send + 'static, E: From<sqlx::Error> + Send + 'static> Queued for Pending<T, E> {
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
    /// Starts a lane's committer task: its batches run on connections of `writer` (SQLite's
    /// one-connection writer pool, or PostgreSQL's pool) in transactions opened with `begin`.
    /// A run of queued [`Committer::post`]s in a batch is posted with one `ledger::post_many` call.
    pub fn start(writer: AnyPool, begin: &'static str) -> Committer {
        let (queue, jobs) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(commit_loop(Lane { writer, begin }, jobs));
        Committer { queue }
    }

    /// Queues a bare movement of money: its result is `ledger::post`'s.
    pub async fn post(&self, entry: OwnedEntry) -> Result<Posted, LedgerError> {
        let (reply, answer) = oneshot::channel();
        let movement: Box<dyn Queued> = Box::new(Movement { entry, result: None, reply });
        self.queue.send(movement).await.map_err(|_| LedgerError::Db(sqlx::Error::PoolClosed))?;
        answer.await.map_err(|_| LedgerError::Db(sqlx::Error::PoolClosed))?
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

/// How a lane runs its batches.
struct Lane {
    writer: AnyPool,
    begin: &'static str,
}

async fn commit_loop(lane: Lane, mut jobs: mpsc::Receiver<Box<dyn Queued>>) {
    let mut batch: Vec<Box<dyn Queued>> = Vec::with_capacity(MAX_BATCH);
    while let Some(first) = jobs.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        match lane.writer.acquire().await {
            Ok(mut conn) => run_batch(&mut conn, &lane, &mut batch).await,
            Err(e) => {
                let message = e.to_string();
                for job in &mut batch {
                    job.fail(sqlx::Error::Protocol(format!("no writer connection: {message}")));
                }
            }
        }
        for job in batch.drain(..) {
            job.answer();
        }
    }
}

/// All of `batch` in one transaction; a failing job is set aside and the rest run together again
/// (at most [`MAX_RETRIES`] times); the jobs set aside, and the rest after too many failures,
/// each run again in a transaction of their own.
async fn run_batch(conn: &mut AnyConnection, lane: &Lane, batch: &mut [Box<dyn Queued>]) {
    let mut together_ones: Vec<&mut Box<dyn Queued>> = batch.iter_mut().collect();
    let mut alone_ones: Vec<&mut Box<dyn Queued>> = Vec::new();
    while together_ones.len() > 1 && alone_ones.len() < MAX_RETRIES {
        match together(conn, lane, &mut together_ones).await {
            Ok(None) => break,
            Ok(Some(failed)) => alone_ones.push(together_ones.remove(failed)),
            Err(e) => {
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
            job.fail(e);
        }
    }
}

/// Runs `jobs` in one transaction: `Ok(None)` when every job succeeded and it committed,
/// `Ok(Some(i))` when job `i` failed (everything was rolled back). Each run of bare movements is
/// one `ledger::post_many` call; a refused movement wrote nothing, so it keeps its refusal as its
/// result and the others go on.
async fn together(
    conn: &mut AnyConnection,
    lane: &Lane,
    jobs: &mut [&mut Box<dyn Queued>],
) -> Result<Option<usize>, sqlx::Error> {
    let mut tx = conn.begin_with(lane.begin).await?;
    let mut i = 0;
    while i < jobs.len() {
        let run = jobs[i..].iter().take_while(|job| job.entry().is_some()).count();
        if run > 0 {
            let results = {
                let entries: Vec<Entry<'_>> = jobs[i..i + run].iter().filter_map(|job| job.entry()).collect();
                ledger::post_many(&mut tx, &entries).await
            };
            match results {
                Ok(results) => {
                    for (job, result) in jobs[i..i + run].iter_mut().zip(results) {
                        job.posted(result);
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, movements = run, "merged postings failed; setting the first aside");
                    tx.rollback().await?;
                    return Ok(Some(i));
                }
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
