//! Logging: `tracing` with the configured filter, as text in dev and JSON lines in prod.

use crate::config::{Config, LogFormat};
use tracing_subscriber::EnvFilter;

pub fn init(config: &Config) {
    let filter = EnvFilter::try_new(&config.log_filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    // A second initialisation (several servers in one test process) is harmless: keep the first.
    let _ = match config.log_format {
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
        LogFormat::Text => builder.try_init(),
    };
}
