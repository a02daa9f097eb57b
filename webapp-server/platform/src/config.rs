//! Configuration: typed defaults, then an optional `croupier.toml`, then environment variables.
//!
//! One table, [`VARIABLES`], names every setting once: its environment variable, its key in
//! `croupier.toml` (the variable's name in lower case), its default and what it means. The README
//! and `deploy/croupier.env.example` document exactly this list, and a test holds them to it.
//! A bad value stops start-up with a message naming the variable (and the file when it came
//! from there). Secrets are wrapped in [`Secret`] and never printed.

use croupier_shared::Currency;
use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

/// A value that must never reach a log or a debug print.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Env {
    Dev,
    Prod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

/// One configurable setting.
pub struct Variable {
    pub env: &'static str,
    pub default: Option<&'static str>,
    pub secret: bool,
    pub doc: &'static str,
}

impl Variable {
    /// Its key in `croupier.toml`: the variable's name in lower case without the `CROUPIER_` prefix.
    pub fn toml_key(&self) -> String {
        self.env.strip_prefix("CROUPIER_").unwrap_or(self.env).to_ascii_lowercase()
    }
}

const fn var(env: &'static str, default: Option<&'static str>, secret: bool, doc: &'static str) -> Variable {
    Variable { env, default, secret, doc }
}

/// Every setting of `croupier-server` and `croupier-bot`.
pub const VARIABLES: &[Variable] = &[
    var("CROUPIER_CONFIG", Some("croupier.toml"), false, "Path of the optional TOML file read before the environment."),
    var("CROUPIER_ADDR", Some("127.0.0.1:8080"), false, "Address and port the server listens on."),
    var(
        "DATABASE_URL",
        Some("sqlite://data/croupier.db"),
        true,
        "sqlite://path (created if missing; opened with the `croupier-wal` VFS unless the URL names one, e.g. `?vfs=unix`) or postgres://user:pass@host/db.",
    ),
    var(
        "CROUPIER_DB_MAX_CONNECTIONS",
        Some("16"),
        false,
        "Size of the database connection pool. On PostgreSQL half of it (a power of two, at most 16) may run the group committer's lanes.",
    ),
    var("REDIS_URL", None, true, "redis://host:port; unset keeps rate limits, cache, leases and pub/sub in-process."),
    var(
        "CROUPIER_REDIS_PREFIX",
        Some("croupier:"),
        false,
        "Prefix of every Redis key, so several installations can share one Redis.",
    ),
    var("CROUPIER_ENV", Some("dev"), false, "dev or prod. prod: JSON logs, Secure cookies, HSTS, no dev mailbox."),
    var(
        "CROUPIER_PUBLIC_URL",
        Some("http://localhost:8080"),
        false,
        "The site's public origin, used in links, canonical URLs and origin checks.",
    ),
    var("CROUPIER_WEB_DIR", Some("miniapp/dist"), false, "Directory of the built client the server serves."),
    var("CROUPIER_LOG", Some("info"), false, "Log filter (tracing EnvFilter syntax, e.g. info,croupier_server=debug)."),
    var("CROUPIER_LOG_FORMAT", None, false, "text or json; default text in dev, json in prod."),
    var(
        "CROUPIER_BODY_LIMIT",
        Some("1048576"),
        false,
        "Largest request body accepted, in bytes; larger bodies get 413.",
    ),
    var("CROUPIER_SITE_NAME", Some("Croupier"), false, "The brand name used in page titles and messages."),
    var(
        "CROUPIER_DEFAULT_CURRENCY",
        Some("USD"),
        false,
        "Currency offered first at registration; must be one of CROUPIER_CURRENCIES.",
    ),
    var("CROUPIER_CURRENCIES", Some("USD,EUR,GBP,CAD"), false, "Comma-separated ISO 4217 codes players may choose."),
    var(
        "CROUPIER_FORCE_LOGOUT_SECONDS",
        Some("1800"),
        false,
        "time_to_force_logout: inactivity after which a player is signed out (a warning in the last 20 %). Play in a game's or sportsbook provider's frame counts as activity: focus moving into the frame, and the focus staying there while the page is in view (the page then reads the account once a period, which keeps the server's session, idle-limited to the same time, alive).",
    ),
    var("CROUPIER_INACTIVITY_CASHIER_SECONDS", Some("900"), false, "user_inactivity_cashier_time sent to the client."),
    var("CROUPIER_INACTIVITY_PP_SECONDS", Some("900"), false, "user_inactivity_pp_time sent to the client."),
    var("CROUPIER_GTM_ID", None, false, "Google Tag Manager container id sent to the client as analytic.gtm_id."),
    var(
        "CROUPIER_SEON_ENABLED",
        Some("false"),
        false,
        "is_seon_enabled: whether the client loads the SEON fraud agent.",
    ),
    var(
        "CROUPIER_BONUS_ISOLATION",
        Some("false"),
        false,
        "is_bonus_isolation_enabled. true (isolated): a bonus's money is spent only in the games the bonus is for; false (shared): in any game. Real money is spent first in both.",
    ),
    var(
        "CROUPIER_BONUS_MAX_ACTIVE",
        Some("2"),
        false,
        "The most bonuses one player may be wagering at once (1 or more).",
    ),
    var(
        "CROUPIER_BONUS_WAGER_CAP",
        Some("0"),
        false,
        "Regulatory cap on a bonus's wagering multiplier (e.g. 10 for the UK from 2026); 0: no cap.",
    ),
    var(
        "CROUPIER_CASHBACK_GRACE_SECONDS",
        Some("600"),
        false,
        "How long after a cashback period ends its close waits, so that the period's last wins land first.",
    ),
    var(
        "CROUPIER_CASHBACK_CHUNK",
        Some("500"),
        false,
        "Players whose cashbacks one transaction of a period's close writes (1 to 10000).",
    ),
    var(
        "CROUPIER_CASHBACK_CHUNK_PAUSE_MS",
        Some("0"),
        false,
        "Pause between two chunks of a period's close, to spread its load on the database.",
    ),
    var(
        "CROUPIER_TOURNAMENT_PAYOUT_PAUSE_MS",
        Some("0"),
        false,
        "Pause between two prizes of a tournament's payout, to spread its load on the database.",
    ),
    var(
        "CROUPIER_SHUTDOWN_GRACE_SECONDS",
        Some("20"),
        false,
        "On SIGTERM: how long in-flight requests may take to finish before the server exits anyway (1 to 600).",
    ),
    var(
        "CROUPIER_DEMO_TOURNAMENT",
        Some("true"),
        false,
        "true: a fresh installation (no tournament yet) gets the weekly tournament the demo content advertises.",
    ),
    var(
        "CROUPIER_FOUR_EYES_MINOR",
        Some("100000"),
        false,
        "Back office: a balance correction or a withdrawal of at least this many minor units needs a second operator's approval (0: every one), in every currency CROUPIER_FOUR_EYES_LIMITS does not name.",
    ),
    var(
        "CROUPIER_FOUR_EYES_LIMITS",
        Some(""),
        false,
        "Back office: the four-eyes limit per currency, comma-separated CURRENCY:minor_units (e.g. KRW:1500000,JPY:150000); a currency not listed uses CROUPIER_FOUR_EYES_MINOR.",
    ),
    var(
        "CROUPIER_BIG_WIN_MULTIPLIER",
        Some("10"),
        false,
        "A real-money round whose win is at least this many times its bet is listed on /winners (2 to 100000).",
    ),
    var(
        "CROUPIER_GAME_HISTORY_EXPORT",
        Some("true"),
        false,
        "is_game_history_export_enabled: players may export their game history.",
    ),
    var(
        "CROUPIER_SECRET_KEY",
        None,
        true,
        "Key signing codes and links (64 hex chars); unset: generated once, kept in the database.",
    ),
    var(
        "CROUPIER_REGISTRATIONS_PER_IP_HOUR",
        Some("20"),
        false,
        "How many accounts one address may register per hour (1 to 100000); more answer TooManyRequestsException.",
    ),
    var(
        "CROUPIER_TRUST_PROXY",
        Some("false"),
        false,
        "true behind a load balancer: the client address is the last X-Forwarded-For entry.",
    ),
    var(
        "CROUPIER_SMTP_URL",
        None,
        true,
        "smtps://user:pass@host:465 or smtp://host:587; unset: e-mail goes to the dev mailbox only.",
    ),
    var("CROUPIER_MAIL_FROM", Some("Croupier <no-reply@localhost>"), false, "Sender of every e-mail."),
    var(
        "CROUPIER_OAUTH_PROVIDERS",
        None,
        true,
        "Social sign-in: comma-separated name|issuer|client_id|client_secret (OpenID Connect issuers).",
    ),
    var(
        "CROUPIER_ADMIN_TOKEN",
        None,
        true,
        "Bearer token of the operator API (/admin/…); unset: the operator API is off.",
    ),
    var(
        "CROUPIER_CMS_TOKENS",
        None,
        true,
        "Full-access tokens of the content API (/cms/api writes), comma-separated, 16+ characters each; unset: only editors write.",
    ),
    var(
        "CROUPIER_KYC_FOR_WITHDRAWAL",
        Some("false"),
        false,
        "true: a withdrawal needs a verified identity (KycWithdrawalException).",
    ),
    var(
        "CROUPIER_KYC_PROVIDER",
        Some("sandbox"),
        false,
        "Identity verification: `sandbox` (a local verification page that sends signed webhooks) or `sumsub`.",
    ),
    var("CROUPIER_KYC_LEVEL", Some("basic-kyc-level"), false, "The verification level applicants are created at."),
    var("CROUPIER_SUMSUB_URL", Some("https://api.sumsub.com"), false, "Sumsub's API origin."),
    var(
        "CROUPIER_SUMSUB_APP_TOKEN",
        None,
        true,
        "Sumsub app token (`X-App-Token`); required with `CROUPIER_KYC_PROVIDER=sumsub`.",
    ),
    var("CROUPIER_SUMSUB_SECRET_KEY", None, true, "Sumsub secret key signing API requests (`X-App-Access-Sig`)."),
    var(
        "CROUPIER_SUMSUB_WEBHOOK_SECRET",
        None,
        true,
        "Secret of Sumsub's webhook digests (`X-Payload-Digest`), received at `/webhooks/kyc/sumsub`.",
    ),
    var(
        "CROUPIER_MAINTENANCE",
        Some("false"),
        false,
        "true: maintenance from start-up (every product call answers ApplicationDisabledException 503); operators also switch it at run time (`/admin/maintenance`, `croupier-server admin maintenance on|off`).",
    ),
    var(
        "CROUPIER_SUPPORT_EMAIL",
        None,
        false,
        "Where `Support.sendFeedback` messages are e-mailed; unset: stored for operators only.",
    ),
    var(
        "CROUPIER_CHAT_PROVIDER",
        Some("sandbox"),
        false,
        "Live chat: `off`, `sandbox`, `livechat`, `intercom`, `zendesk`, `crisp`, `tawkto` or `freshchat` (the CSP is widened for that provider only).",
    ),
    var(
        "CROUPIER_CHAT_ID",
        None,
        false,
        "The chat provider's account id (LiveChat license, Intercom app id, Zendesk key, Crisp website id, Tawk.to `property/widget`, Freshchat `token@host`).",
    ),
    var(
        "CROUPIER_CHAT_SECRET",
        None,
        true,
        "The chat provider's identity-verification secret; the server computes the signed player's hash with it.",
    ),
    var(
        "CROUPIER_CURRENCY_RATES",
        Some("USD=1,EUR=0.92,GBP=0.79,CAD=1.36"),
        false,
        "Reference rates against the default currency for account.getcurrencyrates (display only).",
    ),
    var(
        "CROUPIER_SANDBOX_BANKS",
        Some(
            "sandbox-north:North Sandbox Bank:USD/CAD:,sandbox-south:South Sandbox Bank:GBP:GB,\
             sandbox-coop:Sandbox Co-operative:EUR:FR/BE/LU,sandbox-post:Sandbox Postal Bank::",
        ),
        false,
        "Banks of the sandbox provider's bank transfer (cashier.getbanks), comma-separated \
         id:Name:CURRENCIES:COUNTRIES with / between codes; empty codes: any currency or country.",
    ),
    var(
        "CROUPIER_PAYMENT_PROVIDERS",
        Some("sandbox"),
        false,
        "Payment providers that run, comma-separated, in the order the cashier lists their methods (known: sandbox).",
    ),
    var(
        "CROUPIER_SMS_TWILIO",
        None,
        true,
        "SMS through Twilio's Messages API: account_sid|auth_token|+from_number; unset: SMS go to the dev mailbox only.",
    ),
    var(
        "CROUPIER_SMS_API_URL",
        Some("https://api.twilio.com"),
        false,
        "Base URL of the SMS provider's API (a test or a proxy may stand in for Twilio).",
    ),
    var(
        "CROUPIER_GAME_PROVIDERS",
        None,
        true,
        "External game providers: comma-separated name|launch_url_template|wallet_secret[|display name] (the display name, up to 40 characters, is the provider's name in the lobby — `games.getProviders`, `/providers`, the hall's provider filter — set again at every start, else the name; {token} {user} {game} {mode} {currency} {locale} in the template; a wallet call's `user`, when sent, must be the token's player id).",
    ),
    var(
        "CROUPIER_SPORTSBOOK_PROVIDERS",
        None,
        true,
        "External sportsbook providers: comma-separated name|frame_url_template|wallet_secret[|display name] ({token} {currency} {locale} in the template; the display name, up to 40 characters, is what players see, else the name); they call the signed sportsbook wallet at `/provider/sportsbook/<name>/<action>`.",
    ),
    var(
        "CROUPIER_SPORTSBOOK_FEED",
        Some("sandbox"),
        false,
        "Where the sportsbook's events and prices come from: `sandbox` (a generated calendar, reproducible from its seed, below) `oddsapi` (The Odds API v4 format at the URL below) or `off` (nothing new comes in; bets are still settled).",
    ),
    var("CROUPIER_SPORTSBOOK_SEED", Some("20"), false, "Seed of the sandbox feed's calendar, prices and results."),
    var(
        "CROUPIER_ODDS_API_URL",
        Some("https://api.the-odds-api.com"),
        false,
        "Origin of the odds feed in The Odds API v4 format.",
    ),
    var(
        "CROUPIER_ODDS_API_KEY",
        None,
        true,
        "The odds feed's `apiKey` (required with `CROUPIER_SPORTSBOOK_FEED=oddsapi`).",
    ),
    var(
        "CROUPIER_ODDS_API_SPORTS",
        Some("soccer_epl"),
        false,
        "The odds feed's sport keys to follow, comma-separated (`soccer_`, `tennis_`, `basketball_`, `icehockey_` keys).",
    ),
    var(
        "CROUPIER_ODDS_API_REGIONS",
        Some("eu"),
        false,
        "The odds feed's `regions` parameter (which bookmakers price).",
    ),
    var(
        "CROUPIER_SPORTSBOOK_LIMITS",
        Some("*:0.10:1000:50000"),
        false,
        "Bet limits per currency, comma-separated `CURRENCY:min_stake_per_line:max_total_stake:max_payout` in major units; `*` for every other currency.",
    ),
    var(
        "CROUPIER_SPORTSBOOK_CASH_OUT_MARGIN_BP",
        Some("500"),
        false,
        "The house's margin on a cash-out offer, in basis points of the bet's fair value (0 to 5000).",
    ),
    var(
        "CROUPIER_SPORTSBOOK_STREAMS_PER_ADDRESS",
        Some("20"),
        false,
        "Live odds streams (`/live/sportsbook`) one address may hold open on one replica at a time (1 to 100000).",
    ),
    var(
        "CROUPIER_INTERNAL_SECRET",
        None,
        true,
        "Shared secret of the bot-to-server internal API (required when the bot runs apart).",
    ),
    var("CROUPIER_SERVER_URL", Some("http://127.0.0.1:8080"), false, "Bot only: where the server's internal API is."),
    var(
        "TELEGRAM_BOT_TOKEN",
        None,
        true,
        "Bot token from @BotFather; notifications are sent when it is set (the bot itself runs per CROUPIER_BOT).",
    ),
    var("TELEGRAM_BOT_USERNAME", None, false, "The bot's @username without the @, for t.me links."),
    var(
        "CROUPIER_BOT",
        Some("off"),
        false,
        "Where the bot receives updates: off (this replica does not poll), embedded (long polling inside this server; one replica only), external (a croupier-bot process).",
    ),
    var(
        "CROUPIER_BOT_WEBHOOK_URL",
        None,
        false,
        "Bot only: public HTTPS URL Telegram posts updates to; unset: long polling.",
    ),
    var(
        "TELEGRAM_WEBHOOK_SECRET",
        None,
        true,
        "Bot only, webhook mode: the secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token (1-256 of A-Z a-z 0-9 _ -).",
    ),
    var(
        "CROUPIER_BOT_ADDR",
        Some("0.0.0.0:8443"),
        false,
        "Bot only, webhook mode: the address the webhook listens on.",
    ),
    var(
        "TELEGRAM_API_URL",
        Some("https://api.telegram.org"),
        false,
        "Bot API server (tests and mirrors point it elsewhere).",
    ),
];

/// The sportsbook's feed and limits.
#[derive(Debug, Clone)]
pub struct Sportsbook {
    /// `sandbox`, `oddsapi` or `off`.
    pub feed: String,
    pub seed: u64,
    pub odds_api_url: String,
    pub odds_api_key: Option<Secret>,
    pub odds_api_sports: Vec<String>,
    pub odds_api_regions: String,
    /// Per currency (`None`: every other one): minimum stake per line, maximum total stake and
    /// maximum payout, as major-unit decimal text checked to parse in every currency.
    pub limits: Vec<(Option<Currency>, [String; 3])>,
    pub cash_out_margin_bp: u32,
    /// Live odds streams one address may hold open on one replica.
    pub streams_per_address: u32,
}

impl Sportsbook {
    fn from_raw(raw: &Raw) -> Result<Sportsbook, ConfigError> {
        let feed = raw.required("CROUPIER_SPORTSBOOK_FEED")?.trim().to_owned();
        let odds_api_key = raw.optional("CROUPIER_ODDS_API_KEY").map(Secret::new);
        match feed.as_str() {
            "sandbox" | "off" => {}
            "oddsapi" if odds_api_key.is_some() => {}
            "oddsapi" => {
                return Err(raw.invalid("CROUPIER_ODDS_API_KEY", "is required with CROUPIER_SPORTSBOOK_FEED=oddsapi"));
            }
            other => {
                return Err(
                    raw.invalid("CROUPIER_SPORTSBOOK_FEED", format!("{other:?} is not sandbox, oddsapi or off"))
                );
            }
        }
        let odds_api_url = raw.required("CROUPIER_ODDS_API_URL")?.trim().trim_end_matches('/').to_owned();
        if !(odds_api_url.starts_with("https://") || odds_api_url.starts_with("http://")) {
            return Err(raw.invalid("CROUPIER_ODDS_API_URL", "must be an http(s) URL"));
        }
        let odds_api_sports: Vec<String> = raw
            .required("CROUPIER_ODDS_API_SPORTS")?
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect();
        if odds_api_sports.iter().any(|s| !s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')) {
            return Err(raw.invalid("CROUPIER_ODDS_API_SPORTS", "sport keys are letters, digits and _"));
        }
        let mut limits = Vec::new();
        for entry in raw.required("CROUPIER_SPORTSBOOK_LIMITS")?.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let parts: Vec<&str> = entry.split(':').map(str::trim).collect();
            let [code, min, max, payout] = parts.as_slice() else {
                return Err(
                    raw.invalid("CROUPIER_SPORTSBOOK_LIMITS", "each entry is CURRENCY:min_stake:max_stake:max_payout")
                );
            };
            let currency = if *code == "*" {
                None
            } else {
                Some(Currency::parse(code).ok_or_else(|| {
                    raw.invalid("CROUPIER_SPORTSBOOK_LIMITS", format!("{code:?} is not a supported currency"))
                })?)
            };
            let amounts = [(*min).to_owned(), (*max).to_owned(), (*payout).to_owned()];
            let minor: Option<Vec<i64>> = amounts.iter().map(|a| major_to_minor(a, 6)).collect();
            match minor.as_deref() {
                Some([min, max, payout]) if min <= max && max <= payout => {}
                _ => {
                    return Err(raw.invalid(
                        "CROUPIER_SPORTSBOOK_LIMITS",
                        format!(
                            "{entry}: amounts must be positive decimals (up to 6 places) with min <= max <= max payout"
                        ),
                    ));
                }
            }
            limits.push((currency, amounts));
        }
        if !limits.iter().any(|(c, _)| c.is_none()) {
            return Err(raw.invalid("CROUPIER_SPORTSBOOK_LIMITS", "needs a * entry for the other currencies"));
        }
        let cash_out_margin_bp: u32 =
            raw.parse("CROUPIER_SPORTSBOOK_CASH_OUT_MARGIN_BP", "a whole number of basis points")?;
        if cash_out_margin_bp > 5000 {
            return Err(raw.invalid("CROUPIER_SPORTSBOOK_CASH_OUT_MARGIN_BP", "must be 0 to 5000"));
        }
        let streams_per_address: u32 =
            raw.parse("CROUPIER_SPORTSBOOK_STREAMS_PER_ADDRESS", "a whole number of connections")?;
        if !(1..=100_000).contains(&streams_per_address) {
            return Err(raw.invalid("CROUPIER_SPORTSBOOK_STREAMS_PER_ADDRESS", "must be 1 to 100000"));
        }
        Ok(Sportsbook {
            feed,
            streams_per_address,
            seed: raw.parse("CROUPIER_SPORTSBOOK_SEED", "a whole number")?,
            odds_api_url,
            odds_api_key,
            odds_api_sports,
            odds_api_regions: raw.required("CROUPIER_ODDS_API_REGIONS")?.trim().to_owned(),
            limits,
            cash_out_margin_bp,
        })
    }

    /// The limits of `currency` in its minor units: (min stake per line, max total stake, max payout).
    pub fn limits_of(&self, currency: Currency) -> (i64, i64, i64) {
        let entry = self
            .limits
            .iter()
            .find(|(c, _)| *c == Some(currency))
            .or_else(|| self.limits.iter().find(|(c, _)| c.is_none()));
        let minor = |i: usize| entry.and_then(|(_, a)| major_to_minor(&a[i], currency.exponent())).unwrap_or(1);
        (minor(0), minor(1), minor(2))
    }
}

/// `CROUPIER_FOUR_EYES_LIMITS`: `CURRENCY:minor` entries, each currency once. Amounts are minor
/// units because currencies differ by more than their exponent (1,000.00 USD is 100000 cents;
/// about the same value in KRW, whose exponent is 0, is 1500000 won).
fn four_eyes_limits(raw: &Raw) -> Result<Vec<(Currency, i64)>, ConfigError> {
    const VAR: &str = "CROUPIER_FOUR_EYES_LIMITS";
    let mut limits: Vec<(Currency, i64)> = Vec::new();
    for entry in raw.optional(VAR).unwrap_or_default().split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let (code, amount) =
            entry.split_once(':').ok_or_else(|| raw.invalid(VAR, format!("{entry:?} is not CURRENCY:minor_units")))?;
        let currency = Currency::parse(code.trim())
            .ok_or_else(|| raw.invalid(VAR, format!("{code:?} is not a supported currency")))?;
        let amount = amount.trim();
        let minor: i64 = amount
            .parse()
            .ok()
            .filter(|n: &i64| *n >= 0 && amount.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| raw.invalid(VAR, format!("{entry:?}: the limit is a whole number of minor units")))?;
        if limits.iter().any(|(c, _)| *c == currency) {
            return Err(raw.invalid(VAR, format!("{currency} is listed twice")));
        }
        limits.push((currency, minor));
    }
    Ok(limits)
}

/// A positive major-unit decimal (`0.10`, `1000`) in units of 10^-`exponent`, rounded down but
/// at least 1 (a limit of 0.10 in a currency without minor units is 1).
fn major_to_minor(text: &str, exponent: u8) -> Option<i64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits_only = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 12 || fraction.len() > 6 || !digits_only(whole) || !digits_only(fraction) {
        return None;
    }
    let exponent = usize::from(exponent);
    let kept: String = fraction.chars().chain(std::iter::repeat('0')).take(exponent).collect();
    let value: i64 = format!("{whole}{kept}").parse().ok()?;
    let any = whole.bytes().chain(fraction.bytes()).any(|b| b != b'0');
    any.then_some(value.max(1))
}

/// An OpenID Connect provider for social sign-in.
#[derive(Debug, Clone)]
pub struct OAuthProvider {
    /// The `service` name the client uses (`google`, `telegram`, …).
    pub name: String,
    /// The issuer; its `/.well-known/openid-configuration` describes the endpoints.
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Secret,
}

impl OAuthProvider {
    fn parse_list(list: &str) -> Result<Vec<OAuthProvider>, String> {
        let mut providers: Vec<OAuthProvider> = Vec::new();
        for entry in list.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let parts: Vec<&str> = entry.split('|').map(str::trim).collect();
            let [name, issuer, client_id, client_secret] = parts.as_slice() else {
                return Err("each provider is name|issuer|client_id|client_secret".to_owned());
            };
            let valid_name =
                !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !valid_name {
                return Err(format!("{name:?} is not a provider name (letters, digits, - and _)"));
            }
            if !(issuer.starts_with("https://") || issuer.starts_with("http://")) {
                return Err(format!("the issuer of {name} is not an http(s) URL"));
            }
            if providers.iter().any(|p| p.name == *name) {
                return Err(format!("{name} is listed twice"));
            }
            providers.push(OAuthProvider {
                name: (*name).to_owned(),
                issuer: issuer.trim_end_matches('/').to_owned(),
                client_id: (*client_id).to_owned(),
                client_secret: Secret::new(*client_secret),
            });
        }
        Ok(providers)
    }
}

/// An external game provider (aggregator) speaking the seamless-wallet protocol.
#[derive(Debug, Clone)]
pub struct GameProvider {
    pub name: String,
    /// The game's iframe address with `{token}`, `{user}`, `{game}`, `{mode}`, `{currency}`, `{locale}`.
    pub launch_url: String,
    /// Signs the provider's wallet calls.
    pub secret: Secret,
    /// What players are shown where the provider is named (the sportsbook's book switch, its
    /// frame's title; a game provider's name in the lobby's providers): the optional fourth
    /// field, else the name.
    pub title: String,
}

/// The longest display name a provider may have (characters).
pub const PROVIDER_TITLE_MAX: usize = 40;

/// Providers that call a signed wallet: comma-separated `name|url_template|wallet_secret` in
/// `var` (`CROUPIER_GAME_PROVIDERS`, `CROUPIER_SPORTSBOOK_PROVIDERS`), with an optional fourth
/// field, the display name (`|Acme Sports`: 1 to [`PROVIDER_TITLE_MAX`] characters, no control
/// character; a brand, shown as written in every language).
fn wallet_providers(raw: &Raw, var: &'static str, template_name: &str) -> Result<Vec<GameProvider>, ConfigError> {
    let mut providers = Vec::new();
    for entry in raw.optional(var).unwrap_or_default().split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let parts: Vec<&str> = entry.split('|').map(str::trim).collect();
        let (name, template, secret, title) = match parts.as_slice() {
            [name, template, secret] => (name, template, secret, *name),
            [name, template, secret, title] => (name, template, secret, *title),
            _ => {
                return Err(
                    raw.invalid(var, format!("each provider is name|{template_name}|wallet_secret[|display name]"))
                );
            }
        };
        if title.is_empty() || title.chars().count() > PROVIDER_TITLE_MAX || title.chars().any(char::is_control) {
            return Err(raw.invalid(
                var,
                format!("{name:?}: a display name of 1 to {PROVIDER_TITLE_MAX} characters, none a control character"),
            ));
        }
        let valid = !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && *name != "house";
        if !valid || !template.starts_with("http") || secret.len() < 16 {
            return Err(raw.invalid(
                var,
                format!(
                    "{name:?}: a lower-case name (not `house`), an http(s) template and a secret of 16+ characters"
                ),
            ));
        }
        if providers.iter().any(|p: &GameProvider| p.name == *name) {
            return Err(raw.invalid(var, format!("{name:?} is listed twice")));
        }
        providers.push(GameProvider {
            name: (*name).to_owned(),
            launch_url: (*template).to_owned(),
            secret: Secret::new(*secret),
            title: title.to_owned(),
        });
    }
    Ok(providers)
}

/// The payment providers this build has an adapter for (`ports::payments`).
pub const KNOWN_PAYMENT_PROVIDERS: &[&str] = &["sandbox"];

/// Twilio's Messages API credentials (`CROUPIER_SMS_TWILIO`).
#[derive(Debug, Clone)]
pub struct TwilioSms {
    pub account_sid: String,
    pub auth_token: Secret,
    /// The sending number in E.164 (`+15550001111`).
    pub from: String,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub database_url: Secret,
    pub db_max_connections: u32,
    pub redis_url: Option<Secret>,
    pub redis_prefix: String,
    pub env: Env,
    pub public_url: String,
    pub web_dir: PathBuf,
    pub log_filter: String,
    pub log_format: LogFormat,
    pub body_limit: usize,
    pub site_name: String,
    pub default_currency: Currency,
    pub currencies: Vec<Currency>,
    pub force_logout_seconds: u64,
    pub inactivity_cashier_seconds: u64,
    pub inactivity_pp_seconds: u64,
    pub gtm_id: Option<String>,
    pub seon_enabled: bool,
    pub bonus_isolation: bool,
    /// The most bonuses a player may be wagering at once.
    pub bonus_max_active: i64,
    /// The largest wagering multiplier a bonus may have; 0: no cap.
    pub bonus_wager_cap: i64,
    /// Milliseconds a cashback period's close waits after the period ends.
    pub cashback_grace_ms: i64,
    /// Players per transaction when a period closes.
    pub cashback_chunk: usize,
    /// Pause between two chunks of a close.
    pub cashback_chunk_pause: std::time::Duration,
    /// `CROUPIER_TOURNAMENT_PAYOUT_PAUSE_MS`.
    pub tournament_payout_pause: std::time::Duration,
    /// `CROUPIER_BIG_WIN_MULTIPLIER`.
    pub big_win_multiplier: i64,
    /// `CROUPIER_FOUR_EYES_MINOR`: the four-eyes limit of a currency `four_eyes_limits` does not
    /// name (read it through [`Config::four_eyes_limit`]).
    pub four_eyes_minor: i64,
    /// `CROUPIER_FOUR_EYES_LIMITS`: the four-eyes limit per currency, in its minor units.
    pub four_eyes_limits: Vec<(Currency, i64)>,
    /// `CROUPIER_DEMO_TOURNAMENT`.
    pub demo_tournament: bool,
    /// `CROUPIER_SPORTSBOOK_*` and `CROUPIER_ODDS_API_*`.
    pub sportsbook: Sportsbook,
    /// `CROUPIER_SHUTDOWN_GRACE_SECONDS`.
    pub shutdown_grace: std::time::Duration,
    pub game_history_export: bool,
    pub secret_key: Option<Secret>,
    pub oauth_providers: Vec<OAuthProvider>,
    /// Bearer tokens that may write through the content API.
    pub cms_tokens: Vec<Secret>,
    pub admin_token: Option<Secret>,
    pub game_providers: Vec<GameProvider>,
    /// External sportsbook providers (`CROUPIER_SPORTSBOOK_PROVIDERS`): `launch_url` is their
    /// frame's address, `secret` signs their sportsbook wallet calls.
    pub sportsbook_providers: Vec<GameProvider>,
    pub kyc_for_withdrawal: bool,
    pub kyc: KycConfig,
    /// Maintenance from start-up (`CROUPIER_MAINTENANCE`).
    pub maintenance: bool,
    pub support_email: Option<String>,
    pub chat: ChatConfig,
    /// (currency code, decimal rate) pairs, validated as positive decimals.
    pub currency_rates: Vec<(String, String)>,
    /// The sandbox provider's banks (`CROUPIER_SANDBOX_BANKS`).
    pub sandbox_banks: Vec<crate::ports::payments::BankInfo>,
    pub trust_proxy: bool,
    /// Registrations one address may make per hour.
    pub registrations_per_ip_hour: u64,
    pub smtp_url: Option<Secret>,
    /// Payment providers that run, in order (`CROUPIER_PAYMENT_PROVIDERS`).
    pub payment_providers: Vec<String>,
    /// Twilio credentials for SMS, when SMS go out for real.
    pub sms_twilio: Option<TwilioSms>,
    pub sms_api_url: String,
    pub mail_from: String,
    pub internal_secret: Option<Secret>,
    pub server_url: String,
    pub telegram_bot_token: Option<Secret>,
    pub telegram_bot_username: Option<String>,
    pub telegram_api_url: String,
    pub bot_mode: BotMode,
}

/// The identity verification provider (`CROUPIER_KYC_*`, `CROUPIER_SUMSUB_*`).
#[derive(Debug, Clone)]
pub enum KycConfig {
    Sandbox { level: String },
    Sumsub { level: String, url: String, app_token: Secret, secret_key: Secret, webhook_secret: Secret },
}

impl KycConfig {
    pub fn level(&self) -> &str {
        match self {
            KycConfig::Sandbox { level } | KycConfig::Sumsub { level, .. } => level,
        }
    }
}

/// The live chat (`CROUPIER_CHAT_*`).
#[derive(Debug, Clone)]
pub struct ChatConfig {
    /// off, sandbox, or one of [`CHAT_PROVIDERS`].
    pub provider: String,
    pub id: Option<String>,
    pub secret: Option<Secret>,
}

/// The chat providers with an adapter (besides `off` and `sandbox`).
pub const CHAT_PROVIDERS: [&str; 6] = ["livechat", "intercom", "zendesk", "crisp", "tawkto", "freshchat"];

/// Where the Telegram bot runs (`CROUPIER_BOT`). The default is `off` so that server replicas
/// which only verify init data and send notifications never all poll Telegram (Telegram allows
/// one `getUpdates` consumer per bot): exactly one place receives updates — this process
/// (`embedded`, long polling, the one-command setup) or the standalone `croupier-bot` process
/// (`external`, polling or webhook). Notifications are sent by whichever replica holds the
/// outbox job's lease, whatever the mode, as long as a token is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotMode {
    Off,
    Embedded,
    External,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("{var}{origin}: {reason}")]
    Invalid { var: &'static str, origin: String, reason: String },
    #[error("{path}: {reason}")]
    File { path: String, reason: String },
}

/// Where a raw value came from, for error messages.
#[derive(Clone)]
enum Origin {
    Default,
    File(String),
    Env,
}

struct Raw {
    values: BTreeMap<&'static str, (String, Origin)>,
}

impl Raw {
    fn get(&self, var: &'static str) -> Option<&str> {
        self.values.get(var).map(|(v, _)| v.as_str())
    }

    fn invalid(&self, var: &'static str, reason: impl Into<String>) -> ConfigError {
        let origin = match self.values.get(var).map(|(_, o)| o) {
            Some(Origin::File(path)) => format!(" (in {path})"),
            Some(Origin::Default) => " (default)".to_owned(),
            _ => String::new(),
        };
        ConfigError::Invalid { var, origin, reason: reason.into() }
    }

    fn required(&self, var: &'static str) -> Result<&str, ConfigError> {
        self.get(var).ok_or_else(|| self.invalid(var, "is required"))
    }

    fn parse<T: std::str::FromStr>(&self, var: &'static str, what: &str) -> Result<T, ConfigError> {
        let text = self.required(var)?;
        text.trim().parse().map_err(|_| self.invalid(var, format!("{text:?} is not {what}")))
    }

    fn optional(&self, var: &'static str) -> Option<String> {
        self.get(var).map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned)
    }

    fn flag(&self, var: &'static str) -> Result<bool, ConfigError> {
        match self.required(var)?.trim().to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Ok(true),
            "0" | "false" | "no" | "off" => Ok(false),
            other => Err(self.invalid(var, format!("{other:?} is not true or false"))),
        }
    }
}

impl Config {
    /// The four-eyes limit of `currency` in its minor units: a balance correction or withdrawal of
    /// at least this much needs a second operator (`CROUPIER_FOUR_EYES_LIMITS`, else
    /// `CROUPIER_FOUR_EYES_MINOR`).
    pub fn four_eyes_limit(&self, currency: Currency) -> i64 {
        self.four_eyes_limits.iter().find(|(c, _)| *c == currency).map_or(self.four_eyes_minor, |(_, limit)| *limit)
    }

    /// Reads the real process environment and the file it names.
    pub fn load() -> Result<Config, ConfigError> {
        Config::from_sources(|name| std::env::var(name).ok(), |path| std::fs::read_to_string(path).ok())
    }

    /// Builds the configuration from an environment lookup and a file reader (tests pass their own).
    pub fn from_sources(
        env: impl Fn(&str) -> Option<String>,
        read_file: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let mut values = BTreeMap::new();
        for v in VARIABLES {
            if let Some(default) = v.default {
                values.insert(v.env, (default.to_owned(), Origin::Default));
            }
        }
        let file_path = env("CROUPIER_CONFIG").unwrap_or_else(|| "croupier.toml".to_owned());
        if let Some(text) = read_file(&file_path) {
            let table: toml::Table = text
                .parse()
                .map_err(|e: toml::de::Error| ConfigError::File { path: file_path.clone(), reason: e.to_string() })?;
            for (key, value) in table {
                let variable = VARIABLES.iter().find(|v| v.toml_key() == key).ok_or_else(|| ConfigError::File {
                    path: file_path.clone(),
                    reason: format!("unknown setting `{key}`"),
                })?;
                let text = match value {
                    toml::Value::String(s) => s,
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Boolean(b) => b.to_string(),
                    toml::Value::Array(items) => items
                        .iter()
                        .map(|i| i.as_str().map(str::to_owned).unwrap_or_else(|| i.to_string()))
                        .collect::<Vec<_>>()
                        .join(","),
                    other => {
                        return Err(ConfigError::File {
                            path: file_path.clone(),
                            reason: format!(
                                "`{key}` must be a string, number, boolean or list, not {}",
                                other.type_str()
                            ),
                        });
                    }
                };
                values.insert(variable.env, (text, Origin::File(file_path.clone())));
            }
        }
        for v in VARIABLES {
            if let Some(value) = env(v.env) {
                values.insert(v.env, (value, Origin::Env));
            }
        }
        Config::from_raw(&Raw { values })
    }

    fn from_raw(raw: &Raw) -> Result<Config, ConfigError> {
        let env = match raw.required("CROUPIER_ENV")?.trim() {
            "dev" => Env::Dev,
            "prod" => Env::Prod,
            other => return Err(raw.invalid("CROUPIER_ENV", format!("{other:?} is not dev or prod"))),
        };
        let log_format = match raw.optional("CROUPIER_LOG_FORMAT").as_deref() {
            None if env == Env::Prod => LogFormat::Json,
            None | Some("text") => LogFormat::Text,
            Some("json") => LogFormat::Json,
            Some(other) => return Err(raw.invalid("CROUPIER_LOG_FORMAT", format!("{other:?} is not text or json"))),
        };
        let database_url = raw.required("DATABASE_URL")?.trim().to_owned();
        if !(database_url.starts_with("sqlite:")
            || database_url.starts_with("postgres://")
            || database_url.starts_with("postgresql://"))
        {
            return Err(raw.invalid("DATABASE_URL", "must start with sqlite: or postgres://"));
        }
        let redis_url = raw.optional("REDIS_URL");
        if let Some(url) = &redis_url
            && !(url.starts_with("redis://") || url.starts_with("rediss://"))
        {
            return Err(raw.invalid("REDIS_URL", "must start with redis:// or rediss://"));
        }
        let currency = |var: &'static str, code: &str| {
            Currency::parse(code.trim())
                .ok_or_else(|| raw.invalid(var, format!("{code:?} is not a supported ISO 4217 currency")))
        };
        let currencies = raw
            .required("CROUPIER_CURRENCIES")?
            .split(',')
            .filter(|c| !c.trim().is_empty())
            .map(|c| currency("CROUPIER_CURRENCIES", c))
            .collect::<Result<Vec<_>, _>>()?;
        if currencies.is_empty() {
            return Err(raw.invalid("CROUPIER_CURRENCIES", "lists no currency"));
        }
        let default_currency = currency("CROUPIER_DEFAULT_CURRENCY", raw.required("CROUPIER_DEFAULT_CURRENCY")?)?;
        if !currencies.contains(&default_currency) {
            return Err(
                raw.invalid("CROUPIER_DEFAULT_CURRENCY", format!("{default_currency} is not in CROUPIER_CURRENCIES"))
            );
        }
        let url = |var: &'static str| -> Result<String, ConfigError> {
            let text = raw.required(var)?.trim().trim_end_matches('/').to_owned();
            let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"));
            match rest {
                Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => Ok(text),
                _ => Err(raw.invalid(var, format!("{text:?} is not an http(s) URL"))),
            }
        };
        let body_limit: usize = raw.parse("CROUPIER_BODY_LIMIT", "a number of bytes")?;
        if body_limit < 1024 {
            return Err(raw.invalid("CROUPIER_BODY_LIMIT", "must be at least 1024 bytes"));
        }
        let db_max_connections: u32 = raw.parse("CROUPIER_DB_MAX_CONNECTIONS", "a whole number")?;
        if db_max_connections == 0 {
            return Err(raw.invalid("CROUPIER_DB_MAX_CONNECTIONS", "must be at least 1"));
        }
        let seconds = |var: &'static str| -> Result<u64, ConfigError> {
            let value: u64 = raw.parse(var, "a number of seconds")?;
            if value == 0 { Err(raw.invalid(var, "must be more than 0")) } else { Ok(value) }
        };
        let site_name = raw.required("CROUPIER_SITE_NAME")?.trim().to_owned();
        if site_name.is_empty() {
            return Err(raw.invalid("CROUPIER_SITE_NAME", "must not be empty"));
        }
        let secret_key = raw.optional("CROUPIER_SECRET_KEY");
        if let Some(key) = &secret_key
            && (key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            return Err(raw.invalid("CROUPIER_SECRET_KEY", "must be 64 hexadecimal characters (32 bytes)"));
        }
        let secret_key = secret_key.map(Secret::new);
        let game_providers = wallet_providers(raw, "CROUPIER_GAME_PROVIDERS", "launch_url_template")?;
        let sportsbook_providers = wallet_providers(raw, "CROUPIER_SPORTSBOOK_PROVIDERS", "frame_url_template")?;
        let mut currency_rates = Vec::new();
        for pair in raw.required("CROUPIER_CURRENCY_RATES")?.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (code, rate) = pair
                .split_once('=')
                .ok_or_else(|| raw.invalid("CROUPIER_CURRENCY_RATES", format!("{pair:?} is not CODE=rate")))?;
            let code = Currency::parse(code.trim()).ok_or_else(|| {
                raw.invalid("CROUPIER_CURRENCY_RATES", format!("{code:?} is not a supported currency"))
            })?;
            let rate = rate.trim();
            let decimal = !rate.is_empty()
                && rate.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                && rate.matches('.').count() <= 1;
            if !decimal || rate.trim_matches(|c| c == '0' || c == '.').is_empty() {
                return Err(raw.invalid("CROUPIER_CURRENCY_RATES", format!("{rate:?} is not a positive decimal rate")));
            }
            currency_rates.push((code.code().to_owned(), rate.to_owned()));
        }
        let sandbox_banks = crate::ports::payments::BankInfo::parse_list(raw.required("CROUPIER_SANDBOX_BANKS")?)
            .map_err(|reason| raw.invalid("CROUPIER_SANDBOX_BANKS", reason))?;
        let oauth_providers = raw
            .optional("CROUPIER_OAUTH_PROVIDERS")
            .map(|list| OAuthProvider::parse_list(&list))
            .transpose()
            .map_err(|reason| raw.invalid("CROUPIER_OAUTH_PROVIDERS", reason))?
            .unwrap_or_default();
        let cms_tokens: Vec<Secret> = raw
            .optional("CROUPIER_CMS_TOKENS")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(Secret::new)
            .collect();
        if cms_tokens.iter().any(|t| t.expose().len() < 16 || t.expose().contains(char::is_whitespace)) {
            return Err(raw.invalid("CROUPIER_CMS_TOKENS", "each token needs 16 or more characters and no spaces"));
        }
        if let Some(url) = raw.optional("CROUPIER_SMTP_URL")
            && !(url.starts_with("smtp://") || url.starts_with("smtps://"))
        {
            return Err(raw.invalid("CROUPIER_SMTP_URL", "must start with smtp:// or smtps://"));
        }
        let payment_providers: Vec<String> = raw
            .required("CROUPIER_PAYMENT_PROVIDERS")?
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect();
        if payment_providers.is_empty() {
            return Err(raw.invalid("CROUPIER_PAYMENT_PROVIDERS", "name at least one provider (known: sandbox)"));
        }
        if let Some(unknown) = payment_providers.iter().find(|p| !KNOWN_PAYMENT_PROVIDERS.contains(&p.as_str())) {
            return Err(raw.invalid(
                "CROUPIER_PAYMENT_PROVIDERS",
                format!("{unknown:?} is not a known provider ({})", KNOWN_PAYMENT_PROVIDERS.join(", ")),
            ));
        }
        let sms_twilio = match raw.optional("CROUPIER_SMS_TWILIO") {
            None => None,
            Some(value) => {
                let parts: Vec<&str> = value.split('|').map(str::trim).collect();
                match parts.as_slice() {
                    [sid, token, from]
                        if sid.starts_with("AC")
                            && !token.is_empty()
                            && from.starts_with('+')
                            && from.len() > 4
                            && from[1..].bytes().all(|b| b.is_ascii_digit()) =>
                    {
                        Some(TwilioSms {
                            account_sid: (*sid).to_owned(),
                            auth_token: Secret::new((*token).to_owned()),
                            from: (*from).to_owned(),
                        })
                    }
                    _ => {
                        return Err(raw.invalid(
                            "CROUPIER_SMS_TWILIO",
                            "must be account_sid|auth_token|from_number (AC…, a token, +digits)",
                        ));
                    }
                }
            }
        };
        Ok(Config {
            addr: raw.parse("CROUPIER_ADDR", "an address like 127.0.0.1:8080")?,
            database_url: Secret::new(database_url),
            db_max_connections,
            redis_url: redis_url.map(Secret::new),
            redis_prefix: raw.required("CROUPIER_REDIS_PREFIX")?.to_owned(),
            env,
            public_url: url("CROUPIER_PUBLIC_URL")?,
            web_dir: PathBuf::from(raw.required("CROUPIER_WEB_DIR")?),
            log_filter: raw.required("CROUPIER_LOG")?.to_owned(),
            log_format,
            body_limit,
            site_name,
            default_currency,
            currencies,
            force_logout_seconds: seconds("CROUPIER_FORCE_LOGOUT_SECONDS")?,
            inactivity_cashier_seconds: seconds("CROUPIER_INACTIVITY_CASHIER_SECONDS")?,
            inactivity_pp_seconds: seconds("CROUPIER_INACTIVITY_PP_SECONDS")?,
            gtm_id: raw.optional("CROUPIER_GTM_ID"),
            seon_enabled: raw.flag("CROUPIER_SEON_ENABLED")?,
            bonus_isolation: raw.flag("CROUPIER_BONUS_ISOLATION")?,
            bonus_max_active: {
                let n: i64 = raw.parse("CROUPIER_BONUS_MAX_ACTIVE", "a whole number")?;
                if n < 1 {
                    return Err(raw.invalid("CROUPIER_BONUS_MAX_ACTIVE", "must be at least 1"));
                }
                n
            },
            bonus_wager_cap: {
                let n: i64 = raw.parse("CROUPIER_BONUS_WAGER_CAP", "a whole number")?;
                if n < 0 {
                    return Err(raw.invalid("CROUPIER_BONUS_WAGER_CAP", "must be 0 (off) or more"));
                }
                n
            },
            cashback_grace_ms: {
                let n: i64 = raw.parse("CROUPIER_CASHBACK_GRACE_SECONDS", "a whole number of seconds")?;
                if !(0..=86_400).contains(&n) {
                    return Err(raw.invalid("CROUPIER_CASHBACK_GRACE_SECONDS", "must be 0 to 86400"));
                }
                n * 1000
            },
            cashback_chunk: {
                let n: usize = raw.parse("CROUPIER_CASHBACK_CHUNK", "a whole number")?;
                if !(1..=10_000).contains(&n) {
                    return Err(raw.invalid("CROUPIER_CASHBACK_CHUNK", "must be 1 to 10000"));
                }
                n
            },
            cashback_chunk_pause: {
                let n: u64 = raw.parse("CROUPIER_CASHBACK_CHUNK_PAUSE_MS", "a whole number of milliseconds")?;
                if n > 60_000 {
                    return Err(raw.invalid("CROUPIER_CASHBACK_CHUNK_PAUSE_MS", "must be at most 60000"));
                }
                std::time::Duration::from_millis(n)
            },
            tournament_payout_pause: {
                let n: u64 = raw.parse("CROUPIER_TOURNAMENT_PAYOUT_PAUSE_MS", "a whole number of milliseconds")?;
                if n > 60_000 {
                    return Err(raw.invalid("CROUPIER_TOURNAMENT_PAYOUT_PAUSE_MS", "must be at most 60000"));
                }
                std::time::Duration::from_millis(n)
            },
            big_win_multiplier: {
                let n: i64 = raw.parse("CROUPIER_BIG_WIN_MULTIPLIER", "a whole number")?;
                if !(2..=100_000).contains(&n) {
                    return Err(raw.invalid("CROUPIER_BIG_WIN_MULTIPLIER", "must be 2 to 100000"));
                }
                n
            },
            four_eyes_minor: {
                let n: i64 = raw.parse("CROUPIER_FOUR_EYES_MINOR", "a whole number")?;
                if n < 0 {
                    return Err(raw.invalid("CROUPIER_FOUR_EYES_MINOR", "must be 0 or more"));
                }
                n
            },
            four_eyes_limits: four_eyes_limits(raw)?,
            demo_tournament: raw.flag("CROUPIER_DEMO_TOURNAMENT")?,
            sportsbook: Sportsbook::from_raw(raw)?,
            shutdown_grace: {
                let n: u64 = raw.parse("CROUPIER_SHUTDOWN_GRACE_SECONDS", "a whole number of seconds")?;
                if !(1..=600).contains(&n) {
                    return Err(raw.invalid("CROUPIER_SHUTDOWN_GRACE_SECONDS", "must be 1 to 600"));
                }
                std::time::Duration::from_secs(n)
            },
            game_history_export: raw.flag("CROUPIER_GAME_HISTORY_EXPORT")?,
            secret_key,
            oauth_providers,
            cms_tokens,
            admin_token: raw.optional("CROUPIER_ADMIN_TOKEN").map(Secret::new),
            game_providers,
            sportsbook_providers,
            kyc_for_withdrawal: raw.flag("CROUPIER_KYC_FOR_WITHDRAWAL")?,
            kyc: {
                let level = raw.required("CROUPIER_KYC_LEVEL")?.trim().to_owned();
                if level.is_empty() || level.len() > 100 {
                    return Err(raw.invalid("CROUPIER_KYC_LEVEL", "must be 1 to 100 characters"));
                }
                match raw.required("CROUPIER_KYC_PROVIDER")?.trim() {
                    "sandbox" => KycConfig::Sandbox { level },
                    "sumsub" => {
                        let secret = |var: &'static str| {
                            raw.optional(var)
                                .map(Secret::new)
                                .ok_or_else(|| raw.invalid(var, "is required with CROUPIER_KYC_PROVIDER=sumsub"))
                        };
                        KycConfig::Sumsub {
                            level,
                            url: url("CROUPIER_SUMSUB_URL")?,
                            app_token: secret("CROUPIER_SUMSUB_APP_TOKEN")?,
                            secret_key: secret("CROUPIER_SUMSUB_SECRET_KEY")?,
                            webhook_secret: secret("CROUPIER_SUMSUB_WEBHOOK_SECRET")?,
                        }
                    }
                    other => {
                        return Err(raw.invalid("CROUPIER_KYC_PROVIDER", format!("{other:?} is not sandbox or sumsub")));
                    }
                }
            },
            maintenance: raw.flag("CROUPIER_MAINTENANCE")?,
            support_email: match raw.optional("CROUPIER_SUPPORT_EMAIL") {
                Some(email) if !email.contains('@') || email.len() > 254 => {
                    return Err(raw.invalid("CROUPIER_SUPPORT_EMAIL", "is not an e-mail address"));
                }
                other => other,
            },
            chat: {
                let provider = raw.required("CROUPIER_CHAT_PROVIDER")?.trim().to_ascii_lowercase();
                let id = raw.optional("CROUPIER_CHAT_ID");
                if !(provider == "off" || provider == "sandbox" || CHAT_PROVIDERS.contains(&provider.as_str())) {
                    return Err(raw.invalid(
                        "CROUPIER_CHAT_PROVIDER",
                        format!("{provider:?} is not off, sandbox or one of {}", CHAT_PROVIDERS.join(", ")),
                    ));
                }
                if CHAT_PROVIDERS.contains(&provider.as_str()) {
                    match &id {
                        None => {
                            return Err(raw.invalid(
                                "CROUPIER_CHAT_ID",
                                format!("is required with the chat provider {provider}"),
                            ));
                        }
                        Some(id)
                            if id.len() > 200
                                || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.@/:".contains(&b)) =>
                        {
                            return Err(raw.invalid("CROUPIER_CHAT_ID", "must be letters, digits and - _ . @ / :"));
                        }
                        _ => {}
                    }
                }
                ChatConfig { provider, id, secret: raw.optional("CROUPIER_CHAT_SECRET").map(Secret::new) }
            },
            currency_rates,
            sandbox_banks,
            trust_proxy: raw.flag("CROUPIER_TRUST_PROXY")?,
            registrations_per_ip_hour: {
                let n: u64 = raw.parse("CROUPIER_REGISTRATIONS_PER_IP_HOUR", "a whole number")?;
                if !(1..=100_000).contains(&n) {
                    return Err(raw.invalid("CROUPIER_REGISTRATIONS_PER_IP_HOUR", "must be 1 to 100000"));
                }
                n
            },
            smtp_url: raw.optional("CROUPIER_SMTP_URL").map(Secret::new),
            payment_providers,
            sms_twilio,
            sms_api_url: url("CROUPIER_SMS_API_URL")?,
            mail_from: raw.required("CROUPIER_MAIL_FROM")?.trim().to_owned(),
            internal_secret: raw.optional("CROUPIER_INTERNAL_SECRET").map(Secret::new),
            server_url: url("CROUPIER_SERVER_URL")?,
            telegram_bot_token: raw.optional("TELEGRAM_BOT_TOKEN").map(Secret::new),
            telegram_bot_username: raw.optional("TELEGRAM_BOT_USERNAME").map(|u| u.trim_start_matches('@').to_owned()),
            telegram_api_url: url("TELEGRAM_API_URL")?,
            bot_mode: match raw.required("CROUPIER_BOT")?.trim() {
                "off" => BotMode::Off,
                "embedded" => BotMode::Embedded,
                "external" => BotMode::External,
                other => {
                    return Err(raw.invalid("CROUPIER_BOT", format!("{other:?} is not off, embedded or external")));
                }
            },
        })
    }

    /// The database URL with any password masked, for logs.
    pub fn database_url_for_logs(&self) -> String {
        redact_url(self.database_url.expose())
    }
}

/// `scheme://user:password@host/…` → `scheme://user:***@host/…`.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let Some((credentials, host)) = rest.split_once('@') else { return url.to_owned() };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => format!("{scheme}://{credentials}@{host}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn load(env: &[(&str, &str)], file: Option<&str>) -> Result<Config, ConfigError> {
        let env: HashMap<String, String> = env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        let file = file.map(str::to_owned);
        Config::from_sources(|k| env.get(k).cloned(), move |_| file.clone())
    }

    #[test]
    fn defaults_describe_the_embedded_mode() {
        let config = load(&[], None).unwrap();
        assert_eq!(config.addr.to_string(), "127.0.0.1:8080");
        assert_eq!(config.database_url.expose(), "sqlite://data/croupier.db");
        assert!(config.redis_url.is_none());
        assert_eq!(config.env, Env::Dev);
        assert_eq!(config.log_format, LogFormat::Text);
        assert_eq!(config.body_limit, 1024 * 1024);
        assert_eq!(config.default_currency.code(), "USD");
    }

    #[test]
    fn the_environment_overrides_the_file_which_overrides_defaults() {
        let file = "addr = \"0.0.0.0:9000\"\nsite_name = \"FromFile\"\ncurrencies = [\"EUR\", \"USD\"]\n";
        let config = load(&[("CROUPIER_SITE_NAME", "FromEnv")], Some(file)).unwrap();
        assert_eq!(config.addr.to_string(), "0.0.0.0:9000");
        assert_eq!(config.site_name, "FromEnv");
        assert_eq!(config.currencies.iter().map(|c| c.code()).collect::<Vec<_>>(), ["EUR", "USD"]);
    }

    #[test]
    fn a_bad_value_names_its_variable() {
        let err = load(&[("CROUPIER_ADDR", "nowhere")], None).unwrap_err();
        assert!(err.to_string().starts_with("CROUPIER_ADDR: "), "{err}");
        let err = load(&[("CROUPIER_DEFAULT_CURRENCY", "EUR"), ("CROUPIER_CURRENCIES", "USD")], None).unwrap_err();
        assert!(err.to_string().starts_with("CROUPIER_DEFAULT_CURRENCY: "), "{err}");
        let err = load(&[("DATABASE_URL", "mysql://x")], None).unwrap_err();
        assert!(err.to_string().starts_with("DATABASE_URL: "), "{err}");
        let err = load(&[], Some("body_limit = \"lots\"")).unwrap_err();
        assert!(err.to_string().starts_with("CROUPIER_BODY_LIMIT (in croupier.toml): "), "{err}");
    }

    #[test]
    fn a_bad_file_is_refused_with_its_path() {
        let err = load(&[], Some("no_such_setting = 1")).unwrap_err();
        assert_eq!(err.to_string(), "croupier.toml: unknown setting `no_such_setting`");
        assert!(matches!(load(&[], Some("addr = ")).unwrap_err(), ConfigError::File { .. }));
    }

    #[test]
    fn secrets_never_print() {
        let config = load(
            &[("DATABASE_URL", "postgres://app:hunter2@db/croupier"), ("TELEGRAM_BOT_TOKEN", "123:ABCsecret")],
            None,
        )
        .unwrap();
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2") && !printed.contains("ABCsecret"), "{printed}");
        assert_eq!(config.database_url_for_logs(), "postgres://app:***@db/croupier");
    }

    #[test]
    fn oauth_providers_are_read_from_one_list() {
        let config = load(
            &[(
                "CROUPIER_OAUTH_PROVIDERS",
                "google|https://accounts.google.com|id1|s1, tg|https://oauth.telegram.org/|id2|s2",
            )],
            None,
        )
        .unwrap();
        let names: Vec<_> = config.oauth_providers.iter().map(|p| (p.name.as_str(), p.issuer.as_str())).collect();
        assert_eq!(names, [("google", "https://accounts.google.com"), ("tg", "https://oauth.telegram.org")]);
        assert!(!format!("{config:?}").contains("s1"), "client secrets never print");
        for bad in ["google|https://x", "g o|https://x|a|b", "g|ftp://x|a|b", "g|https://x|a|b,g|https://y|a|b"] {
            let err = load(&[("CROUPIER_OAUTH_PROVIDERS", bad)], None).unwrap_err();
            assert!(err.to_string().starts_with("CROUPIER_OAUTH_PROVIDERS: "), "{bad}: {err}");
        }
    }

    #[test]
    fn wallet_providers_take_an_optional_display_name() {
        let secret = "0123456789abcdef";
        let list = format!(
            "acme|https://a.example/{{token}}|{secret}|Acme Sports Éclair, betzone|https://b.example/|{secret}"
        );
        let config = load(&[("CROUPIER_SPORTSBOOK_PROVIDERS", list.as_str())], None).unwrap();
        let seen: Vec<_> = config.sportsbook_providers.iter().map(|p| (p.name.as_str(), p.title.as_str())).collect();
        assert_eq!(seen, [("acme", "Acme Sports Éclair"), ("betzone", "betzone")]);
        let long = "x".repeat(PROVIDER_TITLE_MAX + 1);
        for bad in [
            format!("acme|https://a.example/|{secret}|"),
            format!("acme|https://a.example/|{secret}|{long}"),
            format!("acme|https://a.example/|{secret}|Acme\tSports"),
            format!("acme|https://a.example/|{secret}|Acme|more"),
        ] {
            let err = load(&[("CROUPIER_SPORTSBOOK_PROVIDERS", bad.as_str())], None).unwrap_err();
            assert!(err.to_string().starts_with("CROUPIER_SPORTSBOOK_PROVIDERS: "), "{bad}: {err}");
            assert!(!err.to_string().contains(secret), "the secret never prints: {err}");
        }
        let fits = format!("acme|https://a.example/|{secret}|{}", "é".repeat(PROVIDER_TITLE_MAX));
        assert_eq!(
            load(&[("CROUPIER_SPORTSBOOK_PROVIDERS", fits.as_str())], None).unwrap().sportsbook_providers.len(),
            1
        );
    }

    #[test]
    fn four_eyes_limits_are_per_currency_with_a_default() {
        let config = load(
            &[("CROUPIER_FOUR_EYES_MINOR", "100000"), ("CROUPIER_FOUR_EYES_LIMITS", " KRW:1500000, JPY:0 ")],
            None,
        )
        .unwrap();
        assert_eq!(config.four_eyes_limit(Currency::parse("KRW").unwrap()), 1_500_000);
        assert_eq!(config.four_eyes_limit(Currency::parse("JPY").unwrap()), 0);
        assert_eq!(config.four_eyes_limit(Currency::parse("USD").unwrap()), 100_000);
        assert_eq!(load(&[], None).unwrap().four_eyes_limit(Currency::parse("KRW").unwrap()), 100_000);
        for bad in ["KRW", "XXX:10", "KRW:-1", "KRW:1.5", "KRW:+5", "KRW:10,KRW:20"] {
            let err = load(&[("CROUPIER_FOUR_EYES_LIMITS", bad)], None).unwrap_err();
            assert!(err.to_string().starts_with("CROUPIER_FOUR_EYES_LIMITS"), "{bad}: {err}");
        }
    }

    #[test]
    fn prod_logs_json_by_default() {
        assert_eq!(load(&[("CROUPIER_ENV", "prod")], None).unwrap().log_format, LogFormat::Json);
        assert!(load(&[("CROUPIER_ENV", "staging")], None).is_err());
    }
}
