//! Prometheus metrics: requests and latency per API method, and the database pool.
//! Each [`AppState`](crate::state::AppState) owns its registry (no global), so parallel test
//! servers never share counters.

use prometheus::{Encoder, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, Opts, Registry, TextEncoder};
use std::time::Duration;

pub struct Metrics {
    registry: Registry,
    api_requests: IntCounterVec,
    api_latency: HistogramVec,
    db_connections: IntGauge,
    db_idle: IntGauge,
}

impl Metrics {
    pub fn new() -> Result<Metrics, prometheus::Error> {
        let registry = Registry::new_custom(Some("croupier".into()), None)?;
        let api_requests = IntCounterVec::new(
            Opts::new("api_requests_total", "Product API calls by method and HTTP status."),
            &["method", "status"],
        )?;
        let api_latency = HistogramVec::new(
            HistogramOpts::new("api_request_duration_seconds", "Product API latency by method.")
                .buckets(vec![0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0]),
            &["method"],
        )?;
        let db_connections = IntGauge::new("db_pool_connections", "Open database connections.")?;
        let db_idle = IntGauge::new("db_pool_idle_connections", "Idle database connections.")?;
        registry.register(Box::new(api_requests.clone()))?;
        registry.register(Box::new(api_latency.clone()))?;
        registry.register(Box::new(db_connections.clone()))?;
        registry.register(Box::new(db_idle.clone()))?;
        Ok(Metrics { registry, api_requests, api_latency, db_connections, db_idle })
    }

    /// Records one API call. `method` is a registered name or `unknown`, never raw input, so the
    /// number of series stays bounded.
    pub fn observe_api(&self, method: &str, status: u16, elapsed: Duration) {
        // A known code's text is static (no string built per call).
        match http::StatusCode::from_u16(status) {
            Ok(code) => self.api_requests.with_label_values(&[method, code.as_str()]).inc(),
            Err(_) => self.api_requests.with_label_values(&[method, &status.to_string()]).inc(),
        }
        self.api_latency.with_label_values(&[method]).observe(elapsed.as_secs_f64());
    }

    /// The exposition text, with the pool gauges read now.
    pub fn render(&self, pool: (u32, usize)) -> String {
        self.db_connections.set(i64::from(pool.0));
        self.db_idle.set(i64::try_from(pool.1).unwrap_or(i64::MAX));
        let mut buffer = Vec::new();
        if let Err(e) = TextEncoder::new().encode(&self.registry.gather(), &mut buffer) {
            tracing::error!(error = %e, "metrics encoding failed");
        }
        String::from_utf8(buffer).unwrap_or_default()
    }
}
