//! Fuzz entry points of this crate: each takes any bytes and panics only when a promise of the
//! code under test is broken. The cargo-fuzz targets (`shared/fuzz/`, nightly) and the stable
//! harness that `make test` and `make fuzz` run (`shared/tests/fuzz.rs`) call these same
//! functions, so each target is written once.

use crate::telegram::deep_link::{self, DeepLink, DeepLinkError, Limit, Page, Target, TrackingKey};
use crate::telegram::init_data::{self, Environment, InitData, WebAppUser};
use crate::telegram::login_widget;
use arbitrary::{Result, Unstructured};
use std::time::{Duration, UNIX_EPOCH};

/// The clock and the bot every init-data case is checked against.
const NOW: u64 = 1_760_000_000;
const BOT_TOKEN: &str = "123456789:fuzz";
const DAY: Duration = Duration::from_secs(86_400);

/// Deep links: any bytes through the decoder (whatever decodes re-encodes to the same link, see
/// [`deep_link::fuzz_decode`]), and a link built from the bytes, once encoded, decodes to itself;
/// the encoder refuses it only for a documented reason.
pub fn deep_link(data: &[u8]) {
    deep_link::fuzz_decode(data);
    let _ = built_link_round_trips(&mut Unstructured::new(data));
}

/// A value of the payload alphabet most of the time (so most links encode), any text sometimes.
fn link_value(u: &mut Unstructured) -> Result<String> {
    if u.ratio(1, 8)? {
        return u.arbitrary();
    }
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    let len = u.int_in_range(1..=40)?;
    (0..len).map(|_| Ok(char::from(*u.choose(ALPHABET)?))).collect()
}

fn built_link_round_trips(u: &mut Unstructured) -> Result<()> {
    let promo_code = if u.arbitrary()? { Some(link_value(u)?) } else { None };
    let target = match u.int_in_range(0..=4)? {
        0 => None,
        1 => Some(Target::Game(link_value(u)?)),
        2 => Some(Target::Tournament(link_value(u)?)),
        3 => Some(Target::Offer(link_value(u)?)),
        _ => Some(Target::Page(*u.choose(&Page::ALL)?)),
    };
    let referral = if u.arbitrary()? { Some(u.arbitrary()?) } else { None };
    let mut tracking = Vec::new();
    for _ in 0..u.int_in_range(0..=3)? {
        tracking.push((*u.choose(&TrackingKey::ALL)?, link_value(u)?));
    }
    let link = DeepLink { promo_code, target, tracking, referral };
    let limit = if u.arbitrary()? { Limit::Start } else { Limit::StartApp };
    let values = link
        .promo_code
        .iter()
        .chain(match &link.target {
            Some(Target::Game(v) | Target::Tournament(v) | Target::Offer(v)) => Some(v),
            _ => None,
        })
        .chain(link.tracking.iter().map(|(_, v)| v));
    let mut writable = true;
    for value in values {
        writable &= !value.is_empty() && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    }
    let repeated =
        link.tracking.iter().enumerate().any(|(i, (key, _))| link.tracking[..i].iter().any(|(k, _)| k == key));
    match deep_link::encode(&link, limit) {
        Ok(payload) => {
            assert!(writable && !repeated, "encoded a link it should refuse: {link:?} -> {payload:?}");
            assert!(payload.len() <= limit.max_len(), "{payload:?} is over {limit:?}");
            assert_eq!(deep_link::decode(&payload), Ok(link), "round trip of {payload:?}");
        }
        Err(DeepLinkError::TooLong { len, max }) => {
            assert!(writable && !repeated && len > max && max == limit.max_len(), "{link:?}: too long {len} > {max}");
        }
        Err(DeepLinkError::InvalidValue { .. }) => assert!(!writable, "refused a writable value: {link:?}"),
        Err(DeepLinkError::Repeated(_)) => assert!(repeated, "refused distinct tracking keys: {link:?}"),
        Err(other) => panic!("encoding {link:?} failed for an undocumented reason: {other}"),
    }
    Ok(())
}

/// Telegram init data and the Login Widget: any bytes through the three checks are refused or
/// accepted, never a panic; and init data signed with the bot token from fields built from the
/// bytes verifies to exactly those fields, while a single-byte change of it, another bot token or
/// an age past the limit does not (a changed byte may only be accepted when it decodes to the
/// same fields, like `%2b` for `%2B`, or spells the same hash in other letter case).
pub fn init_data(data: &[u8]) {
    let raw = String::from_utf8_lossy(data);
    let now = UNIX_EPOCH + Duration::from_secs(NOW);
    let _ = init_data::verify_hmac(&raw, BOT_TOKEN, DAY, now);
    let _ = init_data::verify_ed25519(&raw, 123_456_789, DAY, now, Environment::Production);
    let _ = login_widget::verify_query(&raw, BOT_TOKEN, DAY, now);
    let _ = signed_init_data_verifies(&mut Unstructured::new(data));
}

fn signed_init_data_verifies(u: &mut Unstructured) -> Result<()> {
    let now = UNIX_EPOCH + Duration::from_secs(NOW);
    let age: u64 = u.int_in_range(0..=DAY.as_secs())?;
    let auth_date = (NOW - age).to_string();
    let user = WebAppUser {
        id: u.arbitrary()?,
        is_bot: u.arbitrary()?,
        first_name: u.arbitrary()?,
        last_name: u.arbitrary()?,
        username: u.arbitrary()?,
        language_code: None,
        is_premium: u.arbitrary()?,
        added_to_attachment_menu: false,
        allows_write_to_pm: u.arbitrary()?,
        photo_url: None,
    };
    let user_json = serde_json::to_string(&user).unwrap_or_else(|e| panic!("a user serializes: {e}"));
    let mut fields: Vec<(String, String)> = vec![("auth_date".into(), auth_date)];
    if u.arbitrary()? {
        fields.push(("user".into(), user_json));
    }
    // Text fields the reader keeps, and names it does not know (which are signed all the same).
    for name in ["query_id", "chat_type", "chat_instance", "start_param", "signature", "x", "ünknown"] {
        if u.ratio(1, 3)? {
            // Telegram's values never hold a raw line break (the reader refuses one: it would make
            // the check string ambiguous).
            let value: String = u.arbitrary()?;
            fields.push((name.into(), value.replace('\n', " ")));
        }
    }
    // The signer keeps the given order and the check sorts: any order must verify.
    for i in (1..fields.len()).rev() {
        let j = u.choose_index(i + 1)?;
        fields.swap(i, j);
    }
    let pairs: Vec<(&str, &str)> = fields.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let raw = init_data::sign_hmac(&pairs, BOT_TOKEN);
    let read = init_data::verify_hmac(&raw, BOT_TOKEN, DAY, now)
        .unwrap_or_else(|e| panic!("signed init data must verify: {raw:?}: {e}"));
    let field = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    assert_eq!(read.auth_date, NOW - age);
    assert_eq!(read.user, field("user").map(|_| user.clone()), "{raw:?}");
    assert_eq!(
        (read.query_id.clone(), read.chat_type.clone(), read.chat_instance.clone()),
        (field("query_id"), field("chat_type"), field("chat_instance")),
    );
    assert_eq!((read.start_param.clone(), read.signature.clone()), (field("start_param"), field("signature")));

    assert!(init_data::verify_hmac(&raw, "123456789:other", DAY, now).is_err(), "another bot's token: {raw:?}");
    let late = now + DAY + Duration::from_secs(1);
    assert!(init_data::verify_hmac(&raw, BOT_TOKEN, DAY, late).is_err(), "past the age limit: {raw:?}");

    let mut changed = raw.clone().into_bytes();
    let at = u.choose_index(changed.len())?;
    let byte: u8 = u.arbitrary()?;
    if byte == changed[at] {
        return Ok(());
    }
    changed[at] = byte;
    let changed = String::from_utf8_lossy(&changed);
    if let Ok(accepted) = init_data::verify_hmac(&changed, BOT_TOKEN, DAY, now) {
        let same_hash = accepted.hash.as_deref().map(str::to_ascii_lowercase) == read.hash;
        let rest = |d: &InitData| InitData { hash: None, ..d.clone() };
        assert!(same_hash && rest(&accepted) == rest(&read), "a changed byte at {at} verified: {changed:?}");
    }
    Ok(())
}
