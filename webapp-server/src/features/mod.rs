//! Product features. Each one registers its API methods (and, when it has them, its own HTTP
//! routes) in one place; `lib.rs` assembles them.

pub mod account;
pub mod auth;
pub mod backoffice;
pub mod bonuses;
pub mod cashbacks;
pub mod cashier;
pub mod content;
pub mod freespins;
pub mod games;
pub mod jackpots;
pub mod live;
pub mod loyalty;
pub mod metadata;
pub mod notify;
pub mod protection;
pub mod sportsbook;
pub mod storage;
pub mod tournaments;
pub mod tracking;
pub mod winners;

use crate::AppState;

/// HTTP routes of features that have more than API methods and need only the platform's state.
/// (Content's and social sign-in's routes need their own state too: `lib.rs` merges them.)
pub fn routes() -> axum::Router<AppState> {
    use axum::routing::get;
    axum::Router::new()
        .route("/hit", get(tracking::hit))
        .route("/webhooks/payments/{provider}", axum::routing::post(cashier::deposits::webhook))
        .route("/admin/withdrawals", get(cashier::withdrawals::admin_list))
        .route("/admin/withdrawals/{id}/{action}", axum::routing::post(cashier::withdrawals::admin_decide))
        .merge(games::routes())
        .route("/provider/sportsbook/{provider}/{action}", axum::routing::post(sportsbook::provider::handle))
        .merge(marketing_admin())
        .merge(notify::routes())
        .merge(protection::routes())
        .merge(sportsbook::sandbox_clock::routes())
        .merge(sportsbook::admin::routes())
}

/// The `/admin` routers of the marketing features (campaigns, cashbacks, loyalty, tournaments,
/// jackpots): served to the automation token, and again to operators under the back office.
fn marketing_admin() -> axum::Router<AppState> {
    axum::Router::new()
        .merge(bonuses::admin::routes())
        .merge(cashbacks::programmes::routes())
        .merge(loyalty::admin::routes())
        .merge(tournaments::admin::routes())
        .merge(jackpots::admin::routes())
}

/// The back office's API and, under it, the `/admin` feature routers again behind its gate
/// (`backoffice::admin_mount`): their bodies and answers unchanged, the caller an operator.
pub fn backoffice_routes(state: AppState) -> axum::Router<AppState> {
    backoffice::routes()
        .merge(backoffice::admin_mount(marketing_admin(), state.clone(), "campaigns.manage"))
        .merge(backoffice::admin_mount(protection::verification_admin(), state.clone(), "players.ban"))
        .merge(backoffice::admin_mount(protection::feedback_admin(), state.clone(), "players.read"))
        .merge(backoffice::admin_mount(sportsbook::admin::routes(), state, "sportsbook.manage"))
}
