//! Background jobs. Each runs under a lease in the coordination store, so with several replicas
//! exactly one runs it at a time; a replica that dies lets its lease expire and another takes over.

use crate::AppState;
use std::time::Duration;

const TICK: Duration = Duration::from_secs(15);
const LEASE: Duration = Duration::from_secs(60);

pub fn spawn(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let holder = uuid::Uuid::new_v4().to_string();
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            run_once(&state, "payment-status-poll", &holder, crate::features::cashier::deposits::poll_pending).await;
            run_once(&state, "game-history-export", &holder, crate::features::games::history::run_exports).await;
            run_once(&state, "visit-hits-retention", &holder, crate::features::tracking::prune).await;
            run_once(&state, "bonus-expiry", &holder, crate::features::bonuses::jobs::run).await;
            run_once(&state, "cashback-periods", &holder, crate::features::cashbacks::close::run).await;
            run_once(&state, "loyalty-weekly-summary", &holder, crate::features::loyalty::summary::run).await;
            run_once(&state, "guest-sweep", &holder, crate::features::games::launch::sweep_guests).await;
        }
    })
}

async fn run_once<F, Fut>(state: &AppState, name: &str, holder: &str, job: F)
where
    F: FnOnce(AppState) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    match state.coord().acquire_lease(&format!("job:{name}"), holder, LEASE).await {
        Ok(true) => {
            let outcome = job(state.clone()).await;
            if let Err(e) = &outcome {
                tracing::warn!(job = name, error = format!("{e:#}"), "job failed");
            }
            record_run(state, name, outcome.err().map(|e| format!("{e:#}"))).await;
        }
        Ok(false) => {}
        Err(e) => tracing::warn!(job = name, error = %e, "cannot take the job lease"),
    }
}

/// Keeps the job's last run (`job_runs`) for the back office's system page. A failed write is
/// logged and changes nothing else.
async fn record_run(state: &AppState, name: &str, error: Option<String>) {
    let written = sqlx::query(
        "INSERT INTO job_runs (name, last_run_at, last_ok, last_error) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (name) DO UPDATE SET last_run_at = excluded.last_run_at, last_ok = excluded.last_ok, last_error = excluded.last_error",
    )
    .bind(name)
    .bind(crate::db::now_ms())
    .bind(i64::from(error.is_none()))
    .bind(error.map(|e| e.chars().take(500).collect::<String>()))
    .execute(state.db().pool())
    .await;
    if let Err(e) = written {
        tracing::warn!(job = name, error = %e, "job run not recorded");
    }
}
