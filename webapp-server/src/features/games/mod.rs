//! Games (SPEC §1 lobby, §3 Game/Provider/Favourites, §7 `games.*`): the catalogue, launches,
//! the provider wallet protocol and the built-in house provider.

pub mod bench;
pub mod catalogue;
#[doc(hidden)]
pub mod fuzzing;
pub mod history;
pub mod house;
pub mod index;
pub mod launch;
pub mod wallet;

use crate::AppState;
use crate::api::Registry;

/// The games' `/api` methods; the lobby's read this replica's `index`.
pub fn register(api: &mut Registry, index: &std::sync::Arc<index::Index>) {
    catalogue::register(api, index);
    history::register(api);
}

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/platform/game/{sysname}", get(launch::by_sysname_default))
        .route("/platform/game/{sysname}/{mode}", get(launch::by_sysname))
        .route("/platform/game/custom/{id}/{mode}", get(launch::by_custom_id))
        .route("/provider/wallet/{provider}/{action}", post(wallet::handle))
        .merge(house::routes())
        .merge(history::routes())
}
