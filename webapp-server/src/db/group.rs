//! Group commit: many small write transactions from many tasks share one database transaction.
//!
//! SQLite has one writer, and on the hot path (a bet, a win) the cost of a transaction is mostly
//! its `BEGIN IMMEDIATE` and `COMMIT` round trips to the driver's thread, not the work inside. So
//! [`Db::group`](super::Db::group) queues a *job* — an async function of a connection that does
//! one change — and one committer task runs whatever jobs are queued back to back inside a single
//! transaction, commits once and answers each caller with its own result.
//!
//! Isolation between the jobs of a batch: a job that fails may have written half of its change
//! (the ledger applies a posting and then refuses a negative balance), so on the first failure
//! the whole batch is rolled back and every job of it is run again alone, in its own transaction
//! — the failing one then fails alone and the others succeed as they would have. Jobs must
//! therefore be re-runnable (they are functions, `Fn`, of the connection, and nothing they did
//! survives a rollback). Within a batch, a later job sees an earlier one's writes, exactly as if
//! it had committed first, so idempotency keys and balances behave as in serial execution.
//!
//! On PostgreSQL each job runs in its own transaction at once: there many connections write in
//! parallel, and batching the jobs of unrelated players on one connection would only make their
//! row locks wait on one another.

use futures::future::BoxFuture;
use sqlx::{AnyConnection, AnyPool, Connection};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Most jobs in one transaction.
pub const MAX_BATCH: usize = 64;

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
    /// Starts the committer task for `writer` (SQLite's one-connection writer pool).
    pub fn start(writer: AnyPool) -> Committer {
        let (queue, jobs) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(commit_loop(writer, jobs));
        Committer { queue }
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

async fn commit_loop(writer: AnyPool, mut jobs: mpsc::Receiver<Box<dyn Queued>>) {
    let mut batch: Vec<Box<dyn Queued>> = Vec::with_capacity(MAX_BATCH);
    while let Some(first) = jobs.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        match writer.acquire().await {
            Ok(mut conn) => run_batch(&mut conn, &mut batch).await,
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

/// All of `batch` in one transaction; on a failure, each job again in a transaction of its own.
async fn run_batch(conn: &mut AnyConnection, batch: &mut [Box<dyn Queued>]) {
    if batch.len() > 1 {
        match together(conn, batch).await {
            Ok(true) => return,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(error = %e, jobs = batch.len(), "group commit failed; running the jobs one by one")
            }
        }
    }
    for job in batch.iter_mut() {
        if let Err(e) = alone(conn, job.as_mut()).await {
            job.fail(e);
        }
    }
}

/// Answers `Ok(true)` when every job succeeded and the transaction committed.
async fn together(conn: &mut AnyConnection, batch: &mut [Box<dyn Queued>]) -> Result<bool, sqlx::Error> {
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    for job in batch.iter_mut() {
        if !job.run(&mut tx).await {
            tx.rollback().await?;
            return Ok(false);
        }
    }
    tx.commit().await?;
    Ok(true)
}

async fn alone(conn: &mut AnyConnection, job: &mut dyn Queued) -> Result<(), sqlx::Error> {
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    if job.run(&mut tx).await { tx.commit().await } else { tx.rollback().await }
}
