//! Site metadata: `metadata.getgeneralinfo` (SPEC §3 "General info") and `metadata.get`, a page's
//! SEO data (resolved by the content's SEO rules, `content::seo`).

use crate::api::{ApiError, Ctx, FieldErrors, Input, NoInput, Registry};
use crate::features::content::Cache;
use crate::features::content::seo::{SeoData, has_locale_prefix, localized_path, resolve};
use axum::http::header;
use croupier_shared::{FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The methods, and `metadata.get`, which reads this replica's content `cache`.
pub fn register(api: &mut Registry, cache: &Arc<Cache>) {
    api.read("metadata.getgeneralinfo", "Site-wide settings the client needs at start.", general_info);
    let cache = Arc::clone(cache);
    api.read("metadata.get", "SEO data of a page of the site (path and locale).", move |ctx, input| {
        metadata_get(ctx, Arc::clone(&cache), input)
    });
    // The client learns the site's state (`domain_state`) and pages keep their head in maintenance.
    api.keep_during_maintenance("metadata.getgeneralinfo");
    api.keep_during_maintenance("metadata.get");
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct MetadataInput {
    /// The page's path, like `/gamehall` or `/fr/gamehall`; without a `/fr` prefix the call's
    /// `locale` decides the language. At most 2048 bytes, no `?` or `#`, not starting with `//`.
    #[schemars(length(max = 2048), pattern(r"^/([^/?#][^?#]*)?$"), example = &"/gamehall")]
    pub path: String,
}

impl Input for MetadataInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.path.is_empty() {
            errors.add("path", FieldCode::Required);
        } else if !self.path.starts_with('/') || self.path.starts_with("//") || self.path.contains(['?', '#']) {
            errors.add("path", FieldCode::Invalid);
        } else if self.path.len() > 2048 {
            errors.add_with("path", FieldCode::MaxLength, vec![("max", "2048".into())]);
        }
    }
}

async fn metadata_get(ctx: Ctx, cache: Arc<Cache>, input: MetadataInput) -> Result<SeoData, ApiError> {
    let snapshot = cache.snapshot(ctx.state.db()).await?;
    let path = if has_locale_prefix(&input.path) || ctx.locale == Locale::En {
        input.path
    } else {
        localized_path(ctx.locale, &input.path)
    };
    let host = ctx.headers.get(header::HOST).and_then(|h| h.to_str().ok());
    Ok(resolve(&snapshot, ctx.state.config(), &path, host).seo)
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
    /// `active` while the site accepts play, `maintenance` while operators have it switched off
    /// (then this is the one product call that still answers; the client shows the maintenance
    /// page).
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
        domain_state: if ctx.state.maintenance().await { "maintenance" } else { "active" }.to_owned(),
        domain_type: if host.eq_ignore_ascii_case(public_host) { "main" } else { "mirror" }.to_owned(),
        time_to_force_logout: config.force_logout_seconds,
        is_bonus_isolation_enabled: config.bonus_isolation,
        is_game_history_export_enabled: config.game_history_export,
        user_inactivity_cashier_time: config.inactivity_cashier_seconds,
        user_inactivity_pp_time: config.inactivity_pp_seconds,
    })
}
