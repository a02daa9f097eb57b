//! Mini-app init data (`Telegram.WebApp.initData`): verify it, then read it.
//!
//! The init data is the only proof of who opened the mini-app, so the server signs a player in
//! from it (DESIGN.md "Contracts": "Telegram init data") and must never trust a field it has not
//! verified. Two checks exist, both on the **raw** query string exactly as the page received it:
//!
//! - [`verify_hmac`] — first party, with the bot token. The data-check-string is every received
//!   field except `hash`, as `name=value` lines sorted by name and joined by `\n`; **`signature`
//!   stays in** (Telegram's own docs say "all received fields", the tma.js `validate` only drops
//!   `hash`, and a real init data string issued by Telegram in December 2025 only verifies with
//!   `signature` kept). The key is `HMAC_SHA256(key = "WebAppData", msg = bot_token)`; `hash` must
//!   be the hex of `HMAC_SHA256(key, data-check-string)`, compared in constant time.
//! - [`verify_ed25519`] — third party, with the bot id only: the message is
//!   `"<bot_id>:WebAppData\n"` followed by the sorted lines **without** `hash` and `signature`;
//!   `signature` is the base64url (unpadded) Ed25519 signature under Telegram's published key for
//!   the [`Environment`] (production or test).
//!
//! Both then require `auth_date`, no older than the caller's `max_age` and no more than
//! [`MAX_FUTURE_SKEW`](super::MAX_FUTURE_SKEW) ahead of `now` — stolen init data must not sign
//! anyone in forever. Reading is strict: the query string is split on `&` before anything is
//! percent-decoded, a field named twice is refused (two readers could otherwise see two different
//! players), and bytes that do not decode to UTF-8 are refused.
//!
//! [`sign_hmac`] builds init data signed with a bot token, for tests and the development-only
//! mock environment; it produces exactly what the tma.js `sign` produces.

use super::deep_link::{self, DeepLink, DeepLinkError};
use super::{Fields, auth_date, check_fresh, check_string, hex_hmac, hmac_sha256, parse_query, parse_unsigned};
use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use ed25519_dalek::{Signature, VerifyingKey};
use hmac::Mac;
use serde::{Deserialize, Serialize};
use std::time::{Duration, SystemTime};

/// Telegram's production Ed25519 key for third-party validation,
/// `e7bf03a2fa4602af4580703d88dda5bb59f32ed8b02a56c187fe7d34caed242d`
/// (core.telegram.org/bots/webapps, "Validating data for Third-Party Use"; the same in the tma.js
/// `init-data-node` sources).
pub const PRODUCTION_PUBLIC_KEY: [u8; 32] = [
    0xe7, 0xbf, 0x03, 0xa2, 0xfa, 0x46, 0x02, 0xaf, 0x45, 0x80, 0x70, 0x3d, 0x88, 0xdd, 0xa5, 0xbb, 0x59, 0xf3, 0x2e,
    0xd8, 0xb0, 0x2a, 0x56, 0xc1, 0x87, 0xfe, 0x7d, 0x34, 0xca, 0xed, 0x24, 0x2d,
];

/// Telegram's test-environment Ed25519 key,
/// `40055058a4ee38156a06562e52eece92a771bcd8346a8c4615cb7376eddf72ec`.
pub const TEST_PUBLIC_KEY: [u8; 32] = [
    0x40, 0x05, 0x50, 0x58, 0xa4, 0xee, 0x38, 0x15, 0x6a, 0x06, 0x56, 0x2e, 0x52, 0xee, 0xce, 0x92, 0xa7, 0x71, 0xbc,
    0xd8, 0x34, 0x6a, 0x8c, 0x46, 0x15, 0xcb, 0x73, 0x76, 0xed, 0xdf, 0x72, 0xec,
];

/// The key the first-party secret is derived with.
const WEB_APP_DATA: &[u8] = b"WebAppData";

/// `signature` is base64url; Telegram sends it unpadded, padding is tolerated, stray bits are not.
const SIGNATURE_BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Which Telegram issued the init data: the production one or the test environment (a separate
/// set of accounts and bots, signed with a different key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Environment {
    /// Telegram as players use it.
    Production,
    /// Telegram's test environment.
    Test,
}

impl Environment {
    /// Telegram's Ed25519 public key for this environment.
    pub const fn public_key(self) -> &'static [u8; 32] {
        match self {
            Environment::Production => &PRODUCTION_PUBLIC_KEY,
            Environment::Test => &TEST_PUBLIC_KEY,
        }
    }
}

/// Why init data (or Login Widget data) was refused. Every variant means "do not sign in"; the
/// variants only say why, for logs and tests.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InitDataError {
    /// Longer than [`MAX_RAW_LEN`](super::MAX_RAW_LEN) bytes.
    #[error("the data is longer than {max} bytes")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// Not a well-formed query string.
    #[error("the data is not a well-formed query string: {0}")]
    Malformed(&'static str),
    /// A field name appears twice.
    #[error("field `{0}` appears more than once")]
    DuplicateField(String),
    /// No `hash`, or an empty one.
    #[error("`hash` is missing")]
    MissingHash,
    /// `hash` is not 64 hex digits.
    #[error("`hash` is not 64 hex digits")]
    MalformedHash,
    /// The hash does not match: another bot's token, or altered data.
    #[error("the hash does not match the data")]
    HashMismatch,
    /// No `signature`, or an empty one (third-party check).
    #[error("`signature` is missing")]
    MissingSignature,
    /// `signature` is not base64url of 64 bytes.
    #[error("`signature` is not a base64url Ed25519 signature")]
    MalformedSignature,
    /// The Ed25519 signature does not verify: another bot id, another environment, altered data.
    #[error("the Ed25519 signature does not verify")]
    SignatureMismatch,
    /// The public key given is not a valid Ed25519 point.
    #[error("the Ed25519 public key is not valid")]
    InvalidPublicKey,
    /// No `auth_date`.
    #[error("`auth_date` is missing")]
    MissingAuthDate,
    /// `auth_date` is not a decimal Unix time.
    #[error("`auth_date` is not a Unix time")]
    InvalidAuthDate,
    /// Older than the allowed age.
    #[error("the data is {age_secs} s old, more than the {max_age_secs} s allowed")]
    Expired {
        /// Age of the data.
        age_secs: u64,
        /// The limit.
        max_age_secs: u64,
    },
    /// `auth_date` lies further in the future than clocks can disagree.
    #[error("`auth_date` lies {ahead_secs} s in the future")]
    FromFuture {
        /// How far ahead.
        ahead_secs: u64,
    },
    /// A verified field does not have the shape Telegram documents.
    #[error("field `{field}` is malformed: {reason}")]
    InvalidField {
        /// The field.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// A Telegram user as the init data describes them (`WebAppUser`). Fields Telegram adds later are
/// ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebAppUser {
    /// Telegram user id (up to 52 bits).
    pub id: i64,
    /// True for a bot (only in `receiver`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_bot: Option<bool>,
    /// First name.
    pub first_name: String,
    /// Last name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Username, without `@`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// IETF language tag of the user's Telegram client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language_code: Option<String>,
    /// Telegram Premium.
    #[serde(default)]
    pub is_premium: bool,
    /// The bot is in the user's attachment menu.
    #[serde(default)]
    pub added_to_attachment_menu: bool,
    /// The user let the bot write to them.
    #[serde(default)]
    pub allows_write_to_pm: bool,
    /// Profile photo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo_url: Option<String>,
}

/// The chat the mini-app was opened from through the attachment menu (`WebAppChat`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebAppChat {
    /// Chat id.
    pub id: i64,
    /// `group`, `supergroup` or `channel`.
    #[serde(rename = "type")]
    pub chat_type: String,
    /// Title.
    pub title: String,
    /// Username.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// Photo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo_url: Option<String>,
}

/// Init data (`WebAppInitData`) as read by [`verify_hmac`] or [`verify_ed25519`] — the only
/// functions here that read raw init data, and only after its check passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitData {
    /// When Telegram issued the data, Unix seconds.
    pub auth_date: u64,
    /// The first-party hash (always present after [`verify_hmac`]).
    pub hash: Option<String>,
    /// The third-party Ed25519 signature (always present after [`verify_ed25519`]).
    pub signature: Option<String>,
    /// Session id for `answerWebAppQuery`.
    pub query_id: Option<String>,
    /// Who opened the mini-app.
    pub user: Option<WebAppUser>,
    /// The chat partner, for attachment-menu launches in private chats.
    pub receiver: Option<WebAppUser>,
    /// The chat, for attachment-menu launches in groups and channels.
    pub chat: Option<WebAppChat>,
    /// `sender`, `private`, `group`, `supergroup` or `channel`.
    pub chat_type: Option<String>,
    /// Global identifier of the chat the app was opened from.
    pub chat_instance: Option<String>,
    /// The `startapp` / `startattach` payload — see [`InitData::deep_link`].
    pub start_param: Option<String>,
    /// Seconds after which `answerWebAppQuery` may be called.
    pub can_send_after: Option<u64>,
}

impl InitData {
    /// The `start_param` read with the deep-link grammar, if there is one.
    pub fn deep_link(&self) -> Option<Result<DeepLink, DeepLinkError>> {
        self.start_param.as_deref().map(deep_link::decode)
    }
}

/// The first-party secret: `HMAC_SHA256(key = "WebAppData", msg = bot_token)`. A server that
/// only verifies may store this instead of the token.
pub fn secret_key(bot_token: &str) -> [u8; 32] {
    let mut mac = hmac_sha256(WEB_APP_DATA);
    mac.update(bot_token.as_bytes());
    mac.finalize().into_bytes().into()
}

/// First-party check with the bot token (see the module docs), then the age check, then reading.
pub fn verify_hmac(raw: &str, bot_token: &str, max_age: Duration, now: SystemTime) -> Result<InitData, InitDataError> {
    verify_hmac_with_secret(raw, &secret_key(bot_token), max_age, now)
}

/// [`verify_hmac`] with the secret from [`secret_key`] instead of the token.
pub fn verify_hmac_with_secret(
    raw: &str,
    secret: &[u8; 32],
    max_age: Duration,
    now: SystemTime,
) -> Result<InitData, InitDataError> {
    let fields = parse_query(raw)?;
    let hash = fields.get("hash").filter(|hash| !hash.is_empty()).ok_or(InitDataError::MissingHash)?;
    let issued = auth_date(&fields)?;
    super::verify_hex_hmac(secret, &check_string(&fields, &["hash"]), hash)?;
    check_fresh(issued, max_age, now)?;
    read(&fields, issued)
}

/// Third-party check with Telegram's public key for `environment` and the bot id (the number
/// before `:` in the bot token), then the age check, then reading.
pub fn verify_ed25519(
    raw: &str,
    bot_id: u64,
    max_age: Duration,
    now: SystemTime,
    environment: Environment,
) -> Result<InitData, InitDataError> {
    verify_ed25519_with_key(raw, bot_id, max_age, now, environment.public_key())
}

/// [`verify_ed25519`] with an explicit public key (tests, or a key Telegram rotates to).
pub fn verify_ed25519_with_key(
    raw: &str,
    bot_id: u64,
    max_age: Duration,
    now: SystemTime,
    public_key: &[u8; 32],
) -> Result<InitData, InitDataError> {
    let fields = parse_query(raw)?;
    let encoded = fields.get("signature").filter(|sig| !sig.is_empty()).ok_or(InitDataError::MissingSignature)?;
    let issued = auth_date(&fields)?;
    let bytes = SIGNATURE_BASE64.decode(encoded).map_err(|_| InitDataError::MalformedSignature)?;
    let bytes: [u8; 64] = bytes.try_into().map_err(|_| InitDataError::MalformedSignature)?;
    let signature = Signature::from_bytes(&bytes);
    let key = VerifyingKey::from_bytes(public_key).map_err(|_| InitDataError::InvalidPublicKey)?;
    let message = ed25519_message(&fields, bot_id);
    key.verify_strict(message.as_bytes(), &signature).map_err(|_| InitDataError::SignatureMismatch)?;
    check_fresh(issued, max_age, now)?;
    read(&fields, issued)
}

/// The third-party message: `"<bot_id>:WebAppData\n"` + the sorted lines without `hash` and
/// `signature`. Public so tests (and tools) can sign with their own key.
pub fn ed25519_message_for(raw: &str, bot_id: u64) -> Result<String, InitDataError> {
    Ok(ed25519_message(&parse_query(raw)?, bot_id))
}

fn ed25519_message(fields: &Fields, bot_id: u64) -> String {
    format!("{bot_id}:WebAppData\n{}", check_string(fields, &["hash", "signature"]))
}

/// Init data signed with `bot_token`: the fields in the order given, form-encoded (as
/// `URLSearchParams` does), then `&hash=…` over all of them. A `hash` among `fields` is dropped.
/// For tests and the development-only mock Telegram environment — production init data comes
/// from Telegram.
pub fn sign_hmac(fields: &[(&str, &str)], bot_token: &str) -> String {
    let mut sorted = Fields::new();
    let mut query = form_urlencoded::Serializer::new(String::new());
    for &(name, value) in fields.iter().filter(|(name, _)| *name != "hash") {
        sorted.insert(name.to_owned(), value.to_owned());
        query.append_pair(name, value);
    }
    let hash = hex_hmac(&secret_key(bot_token), &check_string(&sorted, &[]));
    query.append_pair("hash", &hash);
    query.finish()
}

/// Builds the typed view of fields that have passed a check.
fn read(fields: &Fields, auth_date: u64) -> Result<InitData, InitDataError> {
    let text = |name: &str| fields.get(name).cloned();
    Ok(InitData {
        auth_date,
        hash: text("hash"),
        signature: text("signature"),
        query_id: text("query_id"),
        user: json_field(fields, "user")?,
        receiver: json_field(fields, "receiver")?,
        chat: json_field(fields, "chat")?,
        chat_type: text("chat_type"),
        chat_instance: text("chat_instance"),
        start_param: text("start_param"),
        can_send_after: match fields.get("can_send_after") {
            None => None,
            Some(raw) => Some(parse_unsigned(raw).ok_or_else(|| InitDataError::InvalidField {
                field: "can_send_after",
                reason: "not a whole number of seconds".to_owned(),
            })?),
        },
    })
}

fn json_field<T: serde::de::DeserializeOwned>(
    fields: &Fields,
    field: &'static str,
) -> Result<Option<T>, InitDataError> {
    fields
        .get(field)
        .map(|raw| serde_json::from_str(raw).map_err(|e| InitDataError::InvalidField { field, reason: e.to_string() }))
        .transpose()
}
