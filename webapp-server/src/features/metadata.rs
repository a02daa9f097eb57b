//! Site metadata: `metadata.getgeneralinfo` (SPEC §3 "General info").

use crate::api::{ApiError, Ctx, NoInput, Registry};
use axum::http::header;
use croupier_shared::Locale;
use schemars::JsonSchema;
use serde::Serialize;

pub fn register(api: &mut Registry) {
    api.read("metadata.getgeneralinfo", "Site-wide settings the client needs at start.", general_info);
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Analytic {
    /// Google Tag Manager container id, when analytics are configured.
    pub gtm_id: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct GeneralInfo {
    pub analytic: Analytic,
    /// ISO 4217 codes a player may hold an account in.
    pub available_currencies: Vec<String>,
    pub available_locales: Vec<String>,
    pub default_currency: String,
    pub is_seon_enabled: bool,
    /// `active` while the site accepts play (maintenance windows will report `maintenance`).
    pub domain_state: String,
    /// `main` when the request came to the configured public host, `mirror` otherwise.
    pub domain_type: String,
    /// Seconds of inactivity after which the client signs the player out.
    pub time_to_force_logout: u64,
    pub is_bonus_isolation_enabled: bool,
    pub is_game_history_export_enabled: bool,
    /// Seconds of inactivity on the cashier before the client warns.
    pub user_inactivity_cashier_time: u64,
    /// Seconds of inactivity on the personal pages before the client warns.
    pub user_inactivity_pp_time: u64,
}

async fn general_info(ctx: Ctx, _: NoInput) -> Result<GeneralInfo, ApiError> {
    let config = ctx.state.config();
    let public_host = config.public_url.split_once("://").map_or("", |(_, h)| h);
    let host = ctx.headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or(public_host);
    Ok(GeneralInfo {
        analytic: Analytic { gtm_id: config.gtm_id.clone() },
        available_currencies: config.currencies.iter().map(|c| c.code().to_owned()).collect(),
        available_locales: Locale::ALL.iter().map(|l| l.code().to_owned()).collect(),
        default_currency: config.default_currency.code().to_owned(),
        is_seon_enabled: config.seon_enabled,
        domain_state: "active".to_owned(),
        domain_type: if host.eq_ignore_ascii_case(public_host) { "main" } else { "mirror" }.to_owned(),
        time_to_force_logout: config.force_logout_seconds,
        is_bonus_isolation_enabled: config.bonus_isolation,
        is_game_history_export_enabled: config.game_history_export,
        user_inactivity_cashier_time: config.inactivity_cashier_seconds,
        user_inactivity_pp_time: config.inactivity_pp_seconds,
    })
}
