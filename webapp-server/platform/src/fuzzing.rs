//! Fuzz entry points of the platform: each takes any bytes and panics only when a promise of the
//! code under test is broken. The stable harness (`webapp-server/platform/tests/fuzz.rs`, run by
//! `make test` and `make fuzz`) calls them; a cargo-fuzz target would call the same functions.

use crate::api::params::{self, Source};
use crate::ports::kyc::{self, DigestAlg, DigestError, ReviewEvent, ReviewResult};
use crate::ports::payments::{self, Outcome, SignatureError, WEBHOOK_TOLERANCE_SECONDS, WebhookEvent};
use arbitrary::{Result, Unstructured};
use bytes::Bytes;
use serde_json::{Value, json};

/// The clock every webhook case is checked against, in seconds.
const NOW: i64 = 1_760_000_000;
const SECRET: &[u8] = b"whsec_fuzz";

/// The three parts of a raw case: up to two header lines, then the body.
fn lines(data: &[u8]) -> (String, String, &[u8]) {
    let mut parts = data.splitn(3, |b| *b == b'\n');
    let first = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let second = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    (first, second, parts.next().unwrap_or_default())
}

/// Urlencoded bodies: any bytes parse exactly as the WHATWG form parser (`form_urlencoded`) reads
/// them, or are refused only when a part does not decode to UTF-8; and pairs built from the
/// bytes, once encoded, parse back to themselves.
pub fn form(data: &[u8]) {
    let reference: Vec<(String, String)> =
        form_urlencoded::parse(data).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
    match params::parse_urlencoded(data, Source::Body) {
        Ok(pairs) => assert_eq!(pairs, reference, "{:?}", String::from_utf8_lossy(data)),
        Err(_) => assert!(
            reference.iter().any(|(k, v)| k.contains('\u{FFFD}') || v.contains('\u{FFFD}')),
            "refused a body that decodes to UTF-8: {:?}",
            String::from_utf8_lossy(data)
        ),
    }
    let _ = form_round_trips(&mut Unstructured::new(data));
}

fn form_round_trips(u: &mut Unstructured) -> Result<()> {
    let pairs: Vec<(String, String)> = u.arbitrary()?;
    let mut encoded = form_urlencoded::Serializer::new(String::new());
    encoded.extend_pairs(&pairs);
    let encoded = encoded.finish();
    let parsed = params::parse_urlencoded(encoded.as_bytes(), Source::Body);
    assert_eq!(parsed.ok().as_ref(), Some(&pairs), "{encoded:?}");
    Ok(())
}

/// Request bodies by content type (the first line of the case): any bytes are read or refused,
/// never a panic; and a multipart body built from pairs (names of the usual field characters,
/// any text as values) reads back to exactly those pairs.
pub fn multipart(data: &[u8]) {
    let (content_type, _, _) = lines(data);
    let body = data.splitn(2, |b| *b == b'\n').nth(1).unwrap_or_default();
    let _ = futures::executor::block_on(params::parse_body(Some(&content_type), Bytes::copy_from_slice(body)));
    let _ = multipart_round_trips(&mut Unstructured::new(data));
}

fn multipart_round_trips(u: &mut Unstructured) -> Result<()> {
    const NAME: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-[]";
    // Boundary characters that need no quoting in the header (RFC 2046 bchars minus tspecials).
    const BOUNDARY: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-'+";
    let boundary: String =
        (0..u.int_in_range(1..=40)?).map(|_| Ok(char::from(*u.choose(BOUNDARY)?))).collect::<Result<_>>()?;
    let mut pairs = Vec::new();
    for _ in 0..u.int_in_range(0..=6)? {
        let name: String =
            (0..u.int_in_range(1..=12)?).map(|_| Ok(char::from(*u.choose(NAME)?))).collect::<Result<_>>()?;
        let value: String = u.arbitrary()?;
        pairs.push((name, value));
    }
    let delimiter = format!("\r\n--{boundary}");
    if pairs.iter().any(|(_, v)| format!("\r\n{v}\r\n").contains(&delimiter[2..])) {
        return Ok(());
    }
    let mut body = String::new();
    for (name, value) in &pairs {
        body.push_str(&format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"));
    }
    body.push_str(&format!("--{boundary}--\r\n"));
    let content_type = format!("multipart/form-data; boundary={boundary}");
    let read = futures::executor::block_on(params::parse_body(Some(&content_type), Bytes::from(body.clone())));
    if pairs.is_empty() {
        // Only the closing delimiter: no field, or a refusal, but never invented pairs.
        assert!(read.as_ref().map_or(true, Vec::is_empty), "{body:?}: {read:?}");
    } else {
        assert_eq!(read.ok().as_ref(), Some(&pairs), "{body:?}");
    }
    Ok(())
}

/// A JSON value for a field: the right type most of the time, sometimes another or none (and
/// whether it is the right one).
pub fn field(u: &mut Unstructured, right: Value) -> Result<(Option<Value>, bool)> {
    Ok(match u.int_in_range(0..=9)? {
        0 => (None, false),
        1 => (Some(json!([right])), false),
        2 => (
            Some(if right.is_string() { json!(u.arbitrary::<i32>()?) } else { json!(u.arbitrary::<String>()?) }),
            false,
        ),
        _ => (Some(right), true),
    })
}

/// Payment webhooks: any timestamp, signature and body are refused or read, never a panic; a body
/// signed at a timestamp within the tolerance is accepted exactly when its fields are valid (and
/// reads back to them), one outside it is stale, and a changed body byte or timestamp is refused.
pub fn payment_webhook(data: &[u8]) {
    let (timestamp, signature, body) = lines(data);
    let _ = payments::verify(SECRET, Some(&timestamp), Some(&signature), body, NOW);
    let _ = serde_json::from_slice::<WebhookEvent>(body);
    let _ = signed_payment_webhook(&mut Unstructured::new(data));
}

fn signed_payment_webhook(u: &mut Unstructured) -> Result<()> {
    let status = match u.int_in_range(0..=4)? {
        0 => "success".to_owned(),
        1 => "fail".to_owned(),
        2 => "pending".to_owned(),
        3 => "cancel".to_owned(),
        _ => u.arbitrary()?,
    };
    let event = WebhookEvent {
        event_id: u.arbitrary()?,
        payment_id: u.arbitrary()?,
        status,
        amount: u.arbitrary()?,
        currency: if u.arbitrary()? { "USD".to_owned() } else { u.arbitrary()? },
    };
    let mut object = serde_json::Map::new();
    let mut valid = Outcome::parse(&event.status).is_some();
    for (name, right) in [
        ("event_id", json!(event.event_id)),
        ("payment_id", json!(event.payment_id)),
        ("status", json!(event.status)),
        ("amount", json!(event.amount)),
        ("currency", json!(event.currency)),
    ] {
        let (value, ok) = field(u, right)?;
        valid &= ok;
        if let Some(value) = value {
            object.insert(name.to_owned(), value);
        }
    }
    let body = serde_json::to_vec(&object).unwrap_or_else(|e| panic!("a map serializes: {e}"));
    let at = NOW + u.int_in_range(-2 * WEBHOOK_TOLERANCE_SECONDS..=2 * WEBHOOK_TOLERANCE_SECONDS)?;
    let signature = payments::sign(SECRET, at, &body);
    let verified = payments::verify(SECRET, Some(&at.to_string()), Some(&signature), &body, NOW);
    if (at - NOW).abs() > WEBHOOK_TOLERANCE_SECONDS {
        assert_eq!(verified, Err(SignatureError::Stale), "signed at {at}");
        return Ok(());
    }
    assert_eq!(verified, Ok(()), "signed at {at}: {}", String::from_utf8_lossy(&body));
    let read = serde_json::from_slice::<WebhookEvent>(&body).ok().filter(|e| Outcome::parse(&e.status).is_some());
    assert_eq!(read.is_some(), valid, "accepted exactly when the fields are valid: {}", String::from_utf8_lossy(&body));
    if let Some(read) = read {
        assert_eq!(
            (read.event_id, read.payment_id, read.status, read.amount, read.currency),
            (event.event_id, event.payment_id, event.status, event.amount, event.currency)
        );
    }

    let mut changed = body.clone();
    let index = u.choose_index(changed.len())?;
    changed[index] ^= u.int_in_range(1..=255)?;
    let refused = payments::verify(SECRET, Some(&at.to_string()), Some(&signature), &changed, NOW);
    assert_eq!(refused, Err(SignatureError::Invalid), "a changed body byte at {index}");
    let other = at + u.int_in_range(1..=WEBHOOK_TOLERANCE_SECONDS)? * if u.arbitrary()? { 1 } else { -1 };
    let refused = payments::verify(SECRET, Some(&other.to_string()), Some(&signature), &body, NOW);
    assert!(refused.is_err(), "signed at {at}, accepted at {other}");
    let refused = payments::verify(b"another secret", Some(&at.to_string()), Some(&signature), &body, NOW);
    assert_eq!(refused, Err(SignatureError::Invalid), "another secret");
    Ok(())
}

/// Identity-verification webhooks: any digest algorithm, digest and body are refused or read,
/// never a panic; a body with its digest under any accepted algorithm is accepted exactly when
/// its fields are valid (and reads back to them), and a changed body byte or another algorithm
/// is refused.
pub fn kyc_webhook(data: &[u8]) {
    let (alg, digest, body) = lines(data);
    let _ = kyc::verify(SECRET, Some(&alg), Some(&digest), body);
    if let Ok(event) = serde_json::from_slice::<ReviewEvent>(body) {
        let _ = event.created_ms();
    }
    let _ = signed_kyc_webhook(&mut Unstructured::new(data));
}

fn signed_kyc_webhook(u: &mut Unstructured) -> Result<()> {
    const KINDS: [&str; 5] =
        ["applicantPending", "applicantReviewed", "applicantOnHold", "applicantReset", "applicantCreated"];
    let created = u.int_in_range(0..=253_402_300_799_999)?;
    let (created_text, created_valid) =
        if u.ratio(7, 8)? { (kyc::format_timestamp(created), true) } else { (u.arbitrary::<String>()?, false) };
    let event = ReviewEvent {
        kind: if u.arbitrary()? { (*u.choose(&KINDS)?).to_owned() } else { u.arbitrary()? },
        applicant_id: u.arbitrary()?,
        external_user_id: format!("cr-{}", u.arbitrary::<i64>()?),
        level_name: u.arbitrary()?,
        review_status: u.arbitrary()?,
        review_result: if u.arbitrary()? {
            Some(ReviewResult {
                review_answer: if u.arbitrary()? { "GREEN".into() } else { "RED".into() },
                reject_labels: u.arbitrary()?,
                review_reject_type: u.arbitrary()?,
                moderation_comment: u.arbitrary()?,
                client_comment: u.arbitrary()?,
            })
        } else {
            None
        },
        created_at_ms: created_text,
    };
    let mut object = match serde_json::to_value(&event) {
        Ok(Value::Object(object)) => object,
        other => panic!("an event serializes to an object: {other:?}"),
    };
    let mut valid = true;
    for name in ["type", "externalUserId", "createdAtMs"] {
        let (value, ok) = field(u, object[name].clone())?;
        valid &= ok;
        match value {
            Some(value) => object.insert(name.to_owned(), value),
            None => object.remove(name),
        };
    }
    let body = serde_json::to_vec(&object).unwrap_or_else(|e| panic!("a map serializes: {e}"));
    let alg = *u.choose(&[DigestAlg::Sha1, DigestAlg::Sha256, DigestAlg::Sha512])?;
    let digest = kyc::digest(alg, SECRET, &body);
    assert_eq!(kyc::verify(SECRET, Some(alg.name()), Some(&digest), &body), Ok(alg));
    let read = serde_json::from_slice::<ReviewEvent>(&body).ok();
    let stamped = read.as_ref().and_then(ReviewEvent::created_ms);
    if created_valid {
        assert_eq!(
            stamped.is_some(),
            valid,
            "accepted exactly when the fields are valid: {}",
            String::from_utf8_lossy(&body)
        );
    } else {
        assert!(stamped.is_none() || valid, "accepted invalid fields: {}", String::from_utf8_lossy(&body));
    }
    if let (Some(read), true) = (read, valid && created_valid) {
        assert_eq!(read, event);
        assert_eq!(stamped, Some(created));
    }

    let mut changed = body.clone();
    let index = u.choose_index(changed.len())?;
    changed[index] ^= u.int_in_range(1..=255)?;
    assert_eq!(
        kyc::verify(SECRET, Some(alg.name()), Some(&digest), &changed),
        Err(DigestError::Invalid),
        "byte {index}"
    );
    let other = *u.choose(&[DigestAlg::Sha1, DigestAlg::Sha256, DigestAlg::Sha512])?;
    if other != alg {
        assert_eq!(kyc::verify(SECRET, Some(other.name()), Some(&digest), &body), Err(DigestError::Invalid));
    }
    assert_eq!(kyc::verify(b"another secret", Some(alg.name()), Some(&digest), &body), Err(DigestError::Invalid));
    Ok(())
}
