//! Product features. Each one registers its API methods (and, when it has them, its own HTTP
//! routes) in one place; the top-level router only merges them.

pub mod account;
pub mod auth;
pub mod metadata;

use crate::api::Registry;

pub fn register_methods(api: &mut Registry) {
    metadata::register(api);
    auth::register(api);
    account::register(api);
}

/// HTTP routes of features that have more than API methods.
pub fn routes() -> axum::Router<crate::state::AppState> {
    use axum::routing::get;
    axum::Router::new()
        .route("/oauth/init", get(auth::oauth::init))
        .route("/oauth/callback/{provider}", get(auth::oauth::callback))
}
