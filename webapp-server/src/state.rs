//! The one application state every handler receives.

use crate::api::Registry;
use crate::config::Config;
use crate::coord::Coord;
use crate::db::Db;
use crate::features::auth::oauth::OAuth;
use crate::keys::Keys;
use crate::messaging::Messenger;
use crate::metrics::Metrics;
use crate::web::WebAssets;
use anyhow::Context as _;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    db: Db,
    coord: Coord,
    api: Registry,
    metrics: Metrics,
    web: WebAssets,
    keys: Keys,
    messenger: Messenger,
    oauth: OAuth,
    content: crate::features::content::Cache,
    games: crate::features::games::index::Index,
    local_addr: std::sync::OnceLock<std::net::SocketAddr>,
}

impl AppState {
    /// Connects the database (running its migrations) and the coordination store, and prepares
    /// the API and the client's files.
    pub async fn build(config: Config) -> anyhow::Result<AppState> {
        let db = Db::connect(config.database_url.expose(), config.db_max_connections)
            .await
            .with_context(|| format!("cannot open the database {}", config.database_url_for_logs()))?;
        db.migrate().await.context("database migrations failed")?;
        let coord = match &config.redis_url {
            Some(url) => Coord::redis(url.expose(), &config.redis_prefix)
                .await
                .with_context(|| format!("cannot reach Redis at {}", crate::config::redact_url(url.expose())))?,
            None => Coord::in_process(),
        };
        AppState::from_parts(config, db, coord).await
    }

    /// Assembles the state from already-open stores.
    pub async fn from_parts(config: Config, db: Db, coord: Coord) -> anyhow::Result<AppState> {
        AppState::from_parts_with(config, db, coord, |_| {}).await
    }

    /// Like [`AppState::from_parts`], with more API methods registered after the features' own
    /// (tests use it to exercise the dispatcher with methods of their own).
    pub async fn from_parts_with(
        config: Config,
        db: Db,
        coord: Coord,
        extra: impl FnOnce(&mut Registry),
    ) -> anyhow::Result<AppState> {
        let web = WebAssets::load(&config);
        let keys = Keys::load(&db, config.secret_key.as_ref().map(|k| k.expose())).await.context("secret key")?;
        crate::features::games::catalogue::seed(&db, &config.game_providers).await.context("game catalogue")?;
        let messenger = Messenger::new(&config).context("messaging")?;
        let oauth = OAuth::new(&config.oauth_providers).context("social sign-in")?;
        let metrics = Metrics::new().context("metrics registry")?;
        crate::features::content::store::seed_demo(&db).await.context("demo content")?;
        let mut api = Registry::default();
        crate::features::register_methods(&mut api);
        extra(&mut api);
        Ok(AppState {
            inner: Arc::new(Inner {
                config,
                db,
                coord,
                api,
                metrics,
                web,
                keys,
                messenger,
                oauth,
                content: crate::features::content::Cache::default(),
                games: crate::features::games::index::Index::default(),
                local_addr: std::sync::OnceLock::new(),
            }),
        })
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    pub fn coord(&self) -> &Coord {
        &self.inner.coord
    }

    pub fn api(&self) -> &Registry {
        &self.inner.api
    }

    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    pub fn web(&self) -> &WebAssets {
        &self.inner.web
    }

    pub fn keys(&self) -> &Keys {
        &self.inner.keys
    }

    pub fn messenger(&self) -> &Messenger {
        &self.inner.messenger
    }

    pub fn oauth(&self) -> &OAuth {
        &self.inner.oauth
    }

    /// This replica's cached copy of the content (see `features::content::store`).
    pub fn content(&self) -> &crate::features::content::Cache {
        &self.inner.content
    }

    /// This replica's in-memory index of the game catalogue (see `features::games::index`).
    pub fn games(&self) -> &crate::features::games::index::Index {
        &self.inner.games
    }

    /// The address this process listens on (set by [`crate::serve`]); the sandbox provider
    /// sends its webhooks there.
    pub fn local_addr(&self) -> Option<std::net::SocketAddr> {
        self.inner.local_addr.get().copied()
    }

    pub fn set_local_addr(&self, addr: std::net::SocketAddr) {
        let _ = self.inner.local_addr.set(addr);
    }
}
