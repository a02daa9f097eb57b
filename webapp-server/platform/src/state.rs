//! [`AppState`]: the infrastructure every handler may reach — configuration, the database, the
//! coordination store, keys, metrics and the ports of external parties. It carries no feature's
//! state: each feature owns its own (a content cache, a games index, an OAuth client, …) and
//! gets it through axum's `FromRef` from the server's top-level state, which `croupier-server`
//! assembles with the API registry and the web assets.

use crate::config::Config;
use crate::coord::Coord;
use crate::db::Db;
use crate::hot::Hot;
use crate::keys::Keys;
use crate::metrics::Metrics;
use crate::ports::kyc::Kyc;
use crate::ports::messaging::Messenger;
use crate::ports::payments::Payments;
use crate::switches::Switches;
use anyhow::Context as _;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    db: Db,
    coord: Coord,
    metrics: Metrics,
    keys: Keys,
    messenger: Messenger,
    payments: Payments,
    kyc: Kyc,
    switches: Switches,
    hot: Hot,
    local_addr: Arc<OnceLock<SocketAddr>>,
}

impl AppState {
    /// Opens the stores the configuration names: connects the database (running its
    /// migrations) and the coordination store.
    pub async fn open_stores(config: &Config) -> anyhow::Result<(Db, Coord)> {
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
        Ok((db, coord))
    }

    /// The infrastructure over already-open stores: loads the keys, and builds the metrics
    /// registry and the ports the configuration asks for.
    pub async fn new(config: Config, db: Db, coord: Coord) -> anyhow::Result<AppState> {
        let keys = Keys::load(&db, config.secret_key.as_ref().map(|k| k.expose())).await.context("secret key")?;
        let messenger = Messenger::new(&config).context("messaging")?;
        let metrics = Metrics::new().context("metrics registry")?;
        let local_addr = Arc::new(OnceLock::new());
        let payments = Payments::from_config(&config, &db, &keys, Arc::clone(&local_addr)).context("payments")?;
        let kyc = Kyc::from_config(&config, &db, &keys, Arc::clone(&local_addr)).context("identity verification")?;
        let switches = Switches::new(config.maintenance);
        Ok(AppState {
            inner: Arc::new(Inner {
                config,
                db,
                coord,
                metrics,
                keys,
                messenger,
                payments,
                kyc,
                switches,
                hot: Hot::default(),
                local_addr,
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

    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    pub fn keys(&self) -> &Keys {
        &self.inner.keys
    }

    pub fn messenger(&self) -> &Messenger {
        &self.inner.messenger
    }

    /// The payment providers this deployment runs (`CROUPIER_PAYMENT_PROVIDERS`).
    pub fn payments(&self) -> &Payments {
        &self.inner.payments
    }

    /// The identity verification provider (`CROUPIER_KYC_PROVIDER`).
    pub fn kyc(&self) -> &Kyc {
        &self.inner.kyc
    }

    /// Site-wide switches (maintenance).
    pub fn switches(&self) -> &Switches {
        &self.inner.switches
    }

    /// This app's caches of the signed-in hot path ([`crate::hot`]).
    pub fn hot(&self) -> &Hot {
        &self.inner.hot
    }

    /// Tells every replica that `user_id`'s row, sessions or balances changed, the others through
    /// the coordination store right away (an operator command ends before a relay would run).
    pub async fn player_changed(&self, user_id: i64) {
        crate::hot::touch_local(user_id);
        if let Err(e) = crate::hot::announce_player(&self.inner.coord, user_id).await {
            tracing::warn!(error = %e, "cannot tell the other replicas of a changed player");
        }
    }

    /// Whether the site is under maintenance now (see [`crate::switches`]).
    pub async fn maintenance(&self) -> bool {
        self.inner.switches.maintenance(&self.inner.db).await
    }

    /// The address this process listens on (set when it starts serving); the sandbox payment
    /// provider sends its webhooks there.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.inner.local_addr.get().copied()
    }

    pub fn set_local_addr(&self, addr: SocketAddr) {
        let _ = self.inner.local_addr.set(addr);
    }
}
