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
            run_once(&state, "sportsbook-feed", &holder, crate::features::sportsbook::store::run).await;
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
            if let Err(e) = job(state.clone()).await {
                tracing::warn!(job = name, error = format!("{e:#}"), "job failed");
            }
        }
        Ok(false) => {}
        Err(e) => tracing::warn!(job = name, error = %e, "cannot take the job lease"),
    }
}
