//! Payment providers. Each sits behind [`PaymentProvider`]; the built-in [`sandbox`] provider is
//! a working stand-in with its own payment page and signed webhooks, so development and tests
//! go through exactly the path a real provider's money takes.
//!
//! Webhooks of every provider are checked the same way: `X-Croupier-Timestamp` (unix seconds,
//! within ±5 minutes) and `X-Croupier-Signature` = hex HMAC-SHA256 of `timestamp + "." + body`
//! with the provider's webhook secret; each event id is handled once.

pub mod sandbox;

use crate::config::Config;
use crate::db::Db;
use crate::keys::Keys;
use croupier_shared::Money;
use futures::future::BoxFuture;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

pub const TIMESTAMP_HEADER: &str = "x-croupier-timestamp";
pub const SIGNATURE_HEADER: &str = "x-croupier-signature";
/// How far a webhook's timestamp may be from now, in seconds.
pub const WEBHOOK_TOLERANCE_SECONDS: i64 = 300;

/// A payment method a provider offers, with its bounds in major units.
#[derive(Debug, Clone)]
pub struct MethodInfo {
    pub sysname: &'static str,
    pub name_en: &'static str,
    pub name_fr: &'static str,
    pub deposit: bool,
    pub withdrawal: bool,
    pub min_major: i64,
    pub max_major: i64,
    /// Fields the player fills in for this method (SPEC "requisites").
    pub requisites: &'static [&'static str],
}

/// A bank a provider's bank transfer can use (SPEC `cashier.getbanks`), for some currencies and
/// countries (empty: any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankInfo {
    pub id: String,
    pub name: String,
    /// ISO 4217 codes, upper case.
    pub currencies: Vec<String>,
    /// ISO 3166-1 alpha-2 codes, upper case.
    pub countries: Vec<String>,
}

impl BankInfo {
    /// Whether a player paying in `currency` from `country` can use it; an unknown currency or
    /// country (None) does not narrow the choice.
    pub fn serves(&self, currency: Option<&str>, country: Option<&str>) -> bool {
        let any_or = |list: &[String], code: Option<&str>| {
            list.is_empty() || code.is_none_or(|code| list.iter().any(|c| c.eq_ignore_ascii_case(code)))
        };
        any_or(&self.currencies, currency) && any_or(&self.countries, country)
    }

    /// `id:Name:CUR/CUR:CC/CC,…` (see `CROUPIER_SANDBOX_BANKS`).
    pub fn parse_list(text: &str) -> Result<Vec<BankInfo>, String> {
        let mut banks: Vec<BankInfo> = Vec::new();
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let parts: Vec<&str> = entry.split(':').map(str::trim).collect();
            let [id, name, currencies, countries] = parts[..] else {
                return Err(format!("{entry:?} is not id:Name:CURRENCIES:COUNTRIES"));
            };
            let slug = |t: &str| {
                !t.is_empty() && t.len() <= 64 && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            };
            if !slug(id) {
                return Err(format!("{id:?} is not a bank id (letters, digits, - and _)"));
            }
            if name.is_empty() || name.chars().count() > 100 {
                return Err(format!("the bank {id:?} needs a name of 1 to 100 characters"));
            }
            if banks.iter().any(|b| b.id == id) {
                return Err(format!("the bank {id:?} is listed twice"));
            }
            let codes = |list: &str, len: usize, what: &str| -> Result<Vec<String>, String> {
                list.split('/')
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(|c| {
                        if c.len() == len && c.bytes().all(|b| b.is_ascii_alphabetic()) {
                            Ok(c.to_ascii_uppercase())
                        } else {
                            Err(format!("{c:?} is not a {what} code (bank {id:?})"))
                        }
                    })
                    .collect()
            };
            banks.push(BankInfo {
                id: id.to_owned(),
                name: name.to_owned(),
                currencies: codes(currencies, 3, "currency")?,
                countries: codes(countries, 2, "country")?,
            });
        }
        Ok(banks)
    }
}

/// What a provider says about a payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Success,
    Fail,
    Pending,
    Cancel,
}

impl Outcome {
    pub fn parse(text: &str) -> Option<Outcome> {
        match text {
            "success" => Some(Outcome::Success),
            "fail" => Some(Outcome::Fail),
            "pending" => Some(Outcome::Pending),
            "cancel" => Some(Outcome::Cancel),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Fail => "fail",
            Outcome::Pending => "pending",
            Outcome::Cancel => "cancel",
        }
    }
}

/// A verified webhook event.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
pub struct WebhookEvent {
    pub event_id: String,
    pub payment_id: String,
    pub status: String,
    /// Minor units, as providers send them.
    pub amount: i64,
    pub currency: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("the provider refused: {0}")]
    Refused(String),
    #[error("the provider is unreachable: {0}")]
    Unavailable(String),
}

/// A payment provider's adapter. It holds what it needs (its credentials, its own records) and
/// never the application's state.
pub trait PaymentProvider: Send + Sync {
    fn name(&self) -> &'static str;
    fn methods(&self) -> &[MethodInfo];
    /// The banks its methods with a `bank` requisite can pay to or from.
    fn banks(&self) -> &[BankInfo] {
        &[]
    }
    /// The secret that signs this provider's webhooks.
    fn webhook_secret(&self) -> Vec<u8>;
    /// Registers a deposit with the provider; answers where to send the player.
    fn start_deposit<'a>(&'a self, payment_id: &'a str, amount: Money) -> BoxFuture<'a, Result<String, ProviderError>>;
    /// Pays a withdrawal out; answers its outcome.
    fn payout<'a>(&'a self, payment_id: &'a str, amount: Money) -> BoxFuture<'a, Result<Outcome, ProviderError>>;
    /// Asks the provider for a payment's status (the poll behind pending deposits).
    fn status<'a>(&'a self, payment_id: &'a str) -> BoxFuture<'a, Result<Option<Outcome>, ProviderError>>;
}

/// The providers this deployment runs, in the order of `CROUPIER_PAYMENT_PROVIDERS`.
pub struct Payments {
    providers: Vec<Arc<dyn PaymentProvider>>,
    sandbox: Option<Arc<sandbox::Sandbox>>,
}

impl Payments {
    /// Builds the adapters the configuration names (`config` has already refused unknown names).
    pub fn from_config(
        config: &Config,
        db: &Db,
        keys: &Keys,
        local_addr: Arc<OnceLock<SocketAddr>>,
    ) -> anyhow::Result<Payments> {
        let mut providers: Vec<Arc<dyn PaymentProvider>> = Vec::new();
        let mut sandbox = None;
        for name in &config.payment_providers {
            match name.as_str() {
                sandbox::NAME => {
                    let adapter = Arc::new(sandbox::Sandbox::new(
                        db.clone(),
                        keys,
                        &config.public_url,
                        local_addr.clone(),
                        config.sandbox_banks.clone(),
                    ));
                    sandbox = Some(Arc::clone(&adapter));
                    providers.push(adapter);
                }
                other => anyhow::bail!("no adapter for the payment provider {other:?}"),
            }
        }
        Ok(Payments { providers, sandbox })
    }

    /// Every running provider, in order.
    pub fn all(&self) -> impl Iterator<Item = &dyn PaymentProvider> {
        self.providers.iter().map(|p| p.as_ref())
    }

    pub fn provider(&self, name: &str) -> Option<&dyn PaymentProvider> {
        self.all().find(|p| p.name() == name)
    }

    /// The method `sysname` and the provider offering it.
    pub fn method(&self, sysname: &str) -> Option<(&dyn PaymentProvider, &MethodInfo)> {
        self.all().find_map(|p| p.methods().iter().find(|m| m.sysname == sysname).map(|m| (p, m)))
    }

    /// The sandbox adapter, when it runs (its payment page is served only then).
    pub fn sandbox(&self) -> Option<&sandbox::Sandbox> {
        self.sandbox.as_deref()
    }
}

/// HMAC-SHA256 over `timestamp.body`.
fn mac(secret: &[u8], timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret).unwrap_or_else(|_| unreachable!("any key length"));
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// Hex HMAC-SHA256 of `timestamp.body`.
pub fn sign(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    hex::encode(mac(secret, timestamp, body).finalize().into_bytes())
}

#[derive(Debug, PartialEq, Eq)]
pub enum SignatureError {
    Missing,
    Stale,
    Invalid,
}

/// Checks a webhook's timestamp and signature (constant time).
pub fn verify(
    secret: &[u8],
    timestamp: Option<&str>,
    signature: Option<&str>,
    body: &[u8],
    now_seconds: i64,
) -> Result<(), SignatureError> {
    let (Some(timestamp), Some(signature)) = (timestamp, signature) else { return Err(SignatureError::Missing) };
    let timestamp: i64 = timestamp.trim().parse().map_err(|_| SignatureError::Invalid)?;
    // `abs_diff`: a timestamp of `i64::MIN` must be stale, not an overflow (found by fuzzing).
    if now_seconds.abs_diff(timestamp) > WEBHOOK_TOLERANCE_SECONDS.unsigned_abs() {
        return Err(SignatureError::Stale);
    }
    let tag = hex::decode(signature.trim()).map_err(|_| SignatureError::Invalid)?;
    mac(secret, timestamp, body).verify_slice(&tag).map_err(|_| SignatureError::Invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bank_lists_are_parsed_strictly() {
        let banks = BankInfo::parse_list("a-1:First Bank:usd/EUR:fr, b:Any Bank::").unwrap();
        assert_eq!(banks[0].currencies, ["USD", "EUR"]);
        assert_eq!(banks[0].countries, ["FR"]);
        assert!(
            banks[0].serves(Some("EUR"), Some("fr"))
                && !banks[0].serves(Some("GBP"), None)
                && !banks[0].serves(Some("USD"), Some("DE"))
        );
        assert!(banks[0].serves(None, Some("FR")) && !banks[0].serves(None, Some("DE")) && banks[0].serves(None, None));
        assert!(banks[1].serves(Some("CAD"), Some("CA")) && banks[1].serves(Some("USD"), None));
        for bad in ["x:Name:USD", "x::USD:", "x y:Name::", "x:N:US:", "x:N::FRA", "x:N::,x:M::"] {
            assert!(BankInfo::parse_list(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn signatures_check_secret_body_and_time() {
        let sig = sign(b"k", 1000, b"{}");
        assert_eq!(verify(b"k", Some("1000"), Some(&sig), b"{}", 1100), Ok(()));
        assert_eq!(verify(b"k", Some("1000"), Some(&sig), b"{ }", 1100), Err(SignatureError::Invalid));
        assert_eq!(verify(b"x", Some("1000"), Some(&sig), b"{}", 1100), Err(SignatureError::Invalid));
        assert_eq!(verify(b"k", Some("1000"), Some(&sig), b"{}", 1301), Err(SignatureError::Stale));
        assert_eq!(verify(b"k", Some("1001"), Some(&sig), b"{}", 1100), Err(SignatureError::Invalid));
        assert_eq!(verify(b"k", None, Some(&sig), b"{}", 1100), Err(SignatureError::Missing));
        assert_eq!(verify(b"k", Some("-9223372036854775808"), Some(&sig), b"{}", 1100), Err(SignatureError::Stale));
    }
}
