//! Product features. Each one registers its API methods (and, when it has them, its own HTTP
//! routes) in one place; the top-level router only merges them.

pub mod account;
pub mod auth;
pub mod cashbacks;
pub mod cashier;
pub mod content;
pub mod games;
pub mod metadata;
pub mod notify;
pub mod player_storage;
pub mod tracking;

use crate::api::Registry;

pub fn register_methods(api: &mut Registry) {
    metadata::register(api);
    auth::register(api);
    account::register(api);
    cashier::register(api);
    games::register(api);
    content::register(api);
    player_storage::register(api);
    cashbacks::register(api);
}

/// HTTP routes of features that have more than API methods.
pub fn routes() -> axum::Router<crate::state::AppState> {
    use axum::routing::get;
    axum::Router::new()
        .route("/hit", get(tracking::hit))
        .route("/oauth/init", get(auth::oauth::init))
        .route("/oauth/callback/{provider}", get(auth::oauth::callback))
        .route("/webhooks/payments/{provider}", axum::routing::post(cashier::deposits::webhook))
        .route("/sandbox/pay/{id}", get(crate::payments::sandbox::page).post(crate::payments::sandbox::choose))
        .route("/admin/withdrawals", get(cashier::withdrawals::admin_list))
        .route("/admin/freespins", axum::routing::post(games::freespins::admin_grant))
        .route("/admin/cashbacks", axum::routing::post(cashbacks::admin_create))
        .route("/admin/withdrawals/{id}/{action}", axum::routing::post(cashier::withdrawals::admin_decide))
        .merge(games::routes())
        .merge(content::routes())
        .merge(notify::routes())
}
