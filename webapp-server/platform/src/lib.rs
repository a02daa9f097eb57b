//! `croupier-platform`: the floor every feature of `croupier-server` stands on, and which knows
//! none of them (DESIGN.md "Layers inside croupier-server"). Being a crate of its own, the
//! compiler refuses any import from here up into a feature.
//!
//! - [`config`]: the one configuration, read from `croupier.toml` and the environment.
//! - [`db`]: the storage seam (pool, migrations, the group committer, generic over its jobs).
//! - [`ledger`]: the double-entry ledger, every movement of money.
//! - [`coord`]: the coordination store (rate limits, leases, pub/sub), in process or Redis.
//! - [`keys`], [`metrics`], [`telemetry`], [`ops`]: secrets, Prometheus, logs, health.
//! - [`api`]: the `/api` framework — registry, envelope, [`api::ApiError`], parameters, OpenAPI,
//!   and the [`api::extract`] extractors (`AuthUser`, `MaybeUser`, `Operator`).
//! - [`audit`]: the append-only trail of refused guesses (passwords, codes, promo codes, rate
//!   limits tripping).
//! - [`session`]: players' sessions (the cookie and its row), which the extractors read.
//! - [`ports`]: the external parties (payments, mail, SMS), each behind a trait with a real and a
//!   sandbox adapter.
//! - [`state`]: [`AppState`], the infrastructure every handler may reach. Features keep their
//!   own state and get it through axum's `FromRef` from the server's top-level state.
//! - [`switches`]: site-wide switches operators flip at run time (maintenance).
//! - [`crypto`], [`time`]: HMAC-SHA256 and HS256 JWTs; civil dates from day numbers.
//! - [`hot`]: the signed-in hot path's caches (sessions, account summaries) and their
//!   invalidation across replicas.
//! - [`http`]: helpers several features need (HTML escaping, cookies).

pub mod api;
pub mod audit;
pub mod config;
pub mod coord;
pub mod crypto;
pub mod db;
#[doc(hidden)]
pub mod fuzzing;
pub mod hot;
pub mod http;
pub mod keys;
pub mod ledger;
pub mod metrics;
pub mod ops;
pub mod password;
pub mod ports;
pub mod session;
pub mod state;
pub mod switches;
pub mod telemetry;
pub mod time;

pub use config::Config;
pub use state::AppState;
