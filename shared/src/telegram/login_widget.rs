//! The legacy Telegram Login Widget: verify the fields it hands the web site.
//!
//! A player on the web site may link their account to Telegram with the Login Widget
//! (core.telegram.org/widgets/login, "Checking authorization"). The widget gives the page `id`,
//! `first_name`, `last_name`, `username`, `photo_url`, `auth_date` and `hash` — as query
//! parameters of the redirect, or as an object to a JavaScript callback that posts them on. The
//! check differs from the mini-app's in one place only, the secret:
//!
//! - data-check-string: every received field except `hash`, `name=value`, sorted by name,
//!   joined by `\n` (only the fields Telegram sent — a field sent as an empty string where
//!   Telegram sent none changes the string and fails the check);
//! - secret = `SHA256(bot_token)` (not the mini-app's `HMAC("WebAppData", …)`, so mini-app init
//!   data can never pass as widget data nor the reverse);
//! - `hash` = hex `HMAC_SHA256(secret, data-check-string)`, compared in constant time;
//! - `auth_date` no older than `max_age` — widget data is a bearer credential like init data.
//!
//! Errors are [`InitDataError`]: the same reasons, the same meaning.

pub use super::init_data::InitDataError;
use super::{Fields, auth_date, check_fresh, check_string, hex_hmac, parse_query, verify_hex_hmac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::time::{Duration, SystemTime};

/// What a verified Login Widget answer says about the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoginWidgetData {
    /// Telegram user id.
    pub id: i64,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: Option<String>,
    /// Username, without `@`.
    pub username: Option<String>,
    /// Profile photo URL.
    pub photo_url: Option<String>,
    /// When Telegram issued the data, Unix seconds.
    pub auth_date: u64,
    /// The hash that was checked.
    pub hash: String,
}

/// The widget secret, `SHA256(bot_token)`.
fn secret(bot_token: &str) -> [u8; 32] {
    Sha256::digest(bot_token.as_bytes()).into()
}

/// Verifies the widget's fields as received (name, value pairs, already decoded). A name given
/// twice is refused.
pub fn verify<'a>(
    fields: impl IntoIterator<Item = (&'a str, &'a str)>,
    bot_token: &str,
    max_age: Duration,
    now: SystemTime,
) -> Result<LoginWidgetData, InitDataError> {
    let mut collected = Fields::new();
    for (name, value) in fields {
        if collected.insert(name.to_owned(), value.to_owned()).is_some() {
            return Err(InitDataError::DuplicateField(name.to_owned()));
        }
    }
    verify_fields(&collected, bot_token, max_age, now)
}

/// Verifies the widget's redirect query string (`id=…&first_name=…&…&hash=…`), read the same
/// strict way as init data (split on `&`, then decode).
pub fn verify_query(
    raw_query: &str,
    bot_token: &str,
    max_age: Duration,
    now: SystemTime,
) -> Result<LoginWidgetData, InitDataError> {
    verify_fields(&parse_query(raw_query)?, bot_token, max_age, now)
}

/// The hash the widget would send for `fields` (a `hash` among them is ignored). For tests and
/// fakes.
pub fn sign(fields: &[(&str, &str)], bot_token: &str) -> String {
    let collected: Fields =
        fields.iter().filter(|(name, _)| *name != "hash").map(|&(n, v)| (n.to_owned(), v.to_owned())).collect();
    hex_hmac(&secret(bot_token), &check_string(&collected, &[]))
}

fn verify_fields(
    fields: &Fields,
    bot_token: &str,
    max_age: Duration,
    now: SystemTime,
) -> Result<LoginWidgetData, InitDataError> {
    let hash = fields.get("hash").filter(|hash| !hash.is_empty()).ok_or(InitDataError::MissingHash)?;
    let issued = auth_date(fields)?;
    verify_hex_hmac(&secret(bot_token), &check_string(fields, &["hash"]), hash)?;
    check_fresh(issued, max_age, now)?;
    let id = fields
        .get("id")
        .and_then(|raw| raw.parse::<i64>().ok())
        .ok_or_else(|| InitDataError::InvalidField { field: "id", reason: "missing or not an integer".to_owned() })?;
    let first_name = fields
        .get("first_name")
        .cloned()
        .ok_or_else(|| InitDataError::InvalidField { field: "first_name", reason: "missing".to_owned() })?;
    Ok(LoginWidgetData {
        id,
        first_name,
        last_name: fields.get("last_name").cloned(),
        username: fields.get("username").cloned(),
        photo_url: fields.get("photo_url").cloned(),
        auth_date: issued,
        hash: hash.clone(),
    })
}
