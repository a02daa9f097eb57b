//! Telegram: everything the server, the bot and the mini-app must agree on about Telegram data.
//!
//! Croupier is Telegram first (DESIGN.md "Telegram"): a player who opens the mini-app is signed in
//! from the init data Telegram hands the page, a player on the web site may link Telegram through
//! the Login Widget, and every `/start` and `startapp` link carries one payload grammar. This
//! module holds the pure parts of that — no I/O, no clock (the caller passes `now`):
//!
//! - [`init_data`]: the mini-app's init data, verified either with the bot token (HMAC-SHA256,
//!   first party) or with Telegram's Ed25519 public key and the bot id (third party), with an
//!   `auth_date` age limit, then read into a typed [`InitData`].
//! - [`login_widget`]: the legacy Telegram Login Widget hash check.
//! - [`deep_link`]: the one payload grammar of `/start` (≤ 64 characters) and `startapp`
//!   (≤ 512 characters) links.
//!
//! The query-string reading shared by the first two lives here: split on `&` first, then
//! percent-decode each key and value (`+` is a space, as in every form decoder). Decoding the
//! whole string before splitting is a classic bug — a `%26` inside a value would then cut the
//! value in two and invent a field — and the tests pin it down.

pub mod deep_link;
pub mod init_data;
pub mod login_widget;

pub use deep_link::{DeepLink, DeepLinkError, Limit, Page, Target, TrackingKey};
pub use init_data::{Environment, InitData, InitDataError, WebAppChat, WebAppUser};
pub use login_widget::LoginWidgetData;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

type HmacSha256 = Hmac<Sha256>;

/// The longest raw query string (init data or widget query) we read, in bytes. Real init data is
/// about one kilobyte; anything far larger is not from Telegram and is refused before parsing.
pub const MAX_RAW_LEN: usize = 16 * 1024;

/// How far in the future an `auth_date` may lie (Telegram's clock against ours) and still pass.
pub const MAX_FUTURE_SKEW: Duration = Duration::from_secs(60);

/// The received fields, keyed and sorted by their decoded name (byte order, which is the
/// "alphabetical" order Telegram's data-check-string uses). A repeated name is refused.
pub(crate) type Fields = BTreeMap<String, String>;

/// Reads a query string the way Telegram means it: split on `&`, then split each piece on its
/// first `=`, then percent-decode name and value separately. Empty pieces (`a=1&&b=2`, a trailing
/// `&`) are skipped as every URL parser does; a piece without `=` is a name with an empty value.
pub(crate) fn parse_query(raw: &str) -> Result<Fields, InitDataError> {
    if raw.len() > MAX_RAW_LEN {
        return Err(InitDataError::TooLong { max: MAX_RAW_LEN });
    }
    let mut fields = Fields::new();
    for piece in raw.split('&') {
        if piece.is_empty() {
            continue;
        }
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        let name = decode_component(name)?;
        if name.is_empty() {
            return Err(InitDataError::Malformed("a field has an empty name"));
        }
        let value = decode_component(value)?;
        // The check string joins `name=value` lines with `\n`: a line break in a name or value, or
        // an `=` in a name, would let two different sets of fields share one check string (and so
        // one signature). Telegram never sends either (its JSON fields escape line breaks).
        if name.contains(['\n', '=']) || value.contains('\n') {
            return Err(InitDataError::Malformed("a field holds a line break or a name holds '='"));
        }
        if fields.contains_key(&name) {
            return Err(InitDataError::DuplicateField(name));
        }
        fields.insert(name, value);
    }
    Ok(fields)
}

/// Percent-decodes one name or value (`+` → space). Bytes that do not form UTF-8 are refused
/// rather than replaced, so two different inputs can never decode to the same text.
fn decode_component(encoded: &str) -> Result<String, InitDataError> {
    let spaced = encoded.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .map(|text| text.into_owned())
        .map_err(|_| InitDataError::Malformed("a percent-encoded field is not UTF-8"))
}

/// The data-check-string: `name=value` lines of every field except `skip`, sorted by name,
/// joined by `\n`.
pub(crate) fn check_string(fields: &Fields, skip: &[&str]) -> String {
    let mut out = String::new();
    for (name, value) in fields {
        if skip.contains(&name.as_str()) {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(name);
        out.push('=');
        out.push_str(value);
    }
    out
}

/// A fresh HMAC-SHA256 keyed with `key`.
pub(crate) fn hmac_sha256(key: &[u8]) -> HmacSha256 {
    <HmacSha256 as KeyInit>::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"))
}

/// Checks `hash` (64 hex digits, either case) against HMAC-SHA256(`key`, `message`) in constant
/// time.
pub(crate) fn verify_hex_hmac(key: &[u8], message: &str, hash: &str) -> Result<(), InitDataError> {
    let mut expected = [0u8; 32];
    hex::decode_to_slice(hash, &mut expected).map_err(|_| InitDataError::MalformedHash)?;
    let mut mac = hmac_sha256(key);
    mac.update(message.as_bytes());
    mac.verify_slice(&expected).map_err(|_| InitDataError::HashMismatch)
}

/// Lowercase hex of HMAC-SHA256(`key`, `message`).
pub(crate) fn hex_hmac(key: &[u8], message: &str) -> String {
    let mut mac = hmac_sha256(key);
    mac.update(message.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// Reads `auth_date`: present, decimal digits only, a Unix time in seconds.
pub(crate) fn auth_date(fields: &Fields) -> Result<u64, InitDataError> {
    let raw = fields.get("auth_date").ok_or(InitDataError::MissingAuthDate)?;
    parse_unsigned(raw).ok_or(InitDataError::InvalidAuthDate)
}

/// Decimal digits only (no sign, no spaces), fitting in a `u64`.
pub(crate) fn parse_unsigned(raw: &str) -> Option<u64> {
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    raw.parse().ok()
}

/// `auth_date` no older than `max_age` and no more than [`MAX_FUTURE_SKEW`] ahead of `now`.
pub(crate) fn check_fresh(auth_date: u64, max_age: Duration, now: SystemTime) -> Result<(), InitDataError> {
    let now = now.duration_since(UNIX_EPOCH).map(|since| since.as_secs()).unwrap_or(0);
    if auth_date > now {
        let ahead_secs = auth_date - now;
        if ahead_secs > MAX_FUTURE_SKEW.as_secs() {
            return Err(InitDataError::FromFuture { ahead_secs });
        }
        return Ok(());
    }
    let age_secs = now - auth_date;
    if age_secs > max_age.as_secs() {
        return Err(InitDataError::Expired { age_secs, max_age_secs: max_age.as_secs() });
    }
    Ok(())
}
