//! The fuzz entry point of the provider wallet's calls (`croupier_server::fuzzing::wallet`): it
//! takes any bytes and panics only when a promise of the wallet is broken. The cargo-fuzz target
//! (`webapp-server/fuzz/`, nightly) and the stable harness (`webapp-server/tests/api/fuzz.rs`, run
//! by `make test` and `make fuzz`) call this same function, so the target is written once.

use super::wallet::{self, TIMESTAMP_TOLERANCE, WalletRequest};
use arbitrary::{Result, Unstructured};
use croupier_platform::fuzzing::field;
use serde_json::Value;

/// The clock every wallet case is checked against, in seconds.
const NOW: i64 = 1_760_000_000;
const SECRET: &[u8] = b"provider-secret";
const PATH: &str = "/provider/wallet/hub/bet";

/// The provider wallet's calls: any timestamp, signature and body (the case's first two lines,
/// then the rest) are refused or read, never a panic, and a body that reads writes back to the
/// same request; a body signed within the tolerance is accepted exactly when its fields are
/// valid (and reads back to them), one outside it is refused, and so is a changed body byte,
/// timestamp, path or secret.
pub fn wallet(data: &[u8]) {
    let mut parts = data.splitn(3, |b| *b == b'\n');
    let timestamp = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let signature = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let body = parts.next().unwrap_or_default();
    let _ = wallet::signed(SECRET, &timestamp, &signature, PATH, body, NOW);
    if let Ok(request) = serde_json::from_slice::<WalletRequest>(body) {
        let written = serde_json::to_vec(&request).unwrap_or_else(|e| panic!("a request serializes: {e}"));
        let again = serde_json::from_slice::<WalletRequest>(&written).map(|r| serde_json::to_value(r).ok());
        assert_eq!(again.ok().flatten(), serde_json::to_value(&request).ok(), "{}", String::from_utf8_lossy(&written));
    }
    let _ = signed_call(&mut Unstructured::new(data));
}

fn signed_call(u: &mut Unstructured) -> Result<()> {
    let request = WalletRequest {
        request_uuid: u.arbitrary()?,
        transaction_uuid: u.arbitrary()?,
        reference_transaction_uuid: u.arbitrary()?,
        round: u.arbitrary()?,
        round_closed: u.arbitrary()?,
        user: u.arbitrary()?,
        token: u.arbitrary()?,
        game_code: u.arbitrary()?,
        currency: u.arbitrary()?,
        amount: u.arbitrary()?,
    };
    let Ok(Value::Object(mut object)) = serde_json::to_value(&request) else {
        panic!("a request serializes to an object");
    };
    let mut valid = true;
    let names: Vec<String> = object.keys().cloned().collect();
    for name in names {
        // A null optional field stays: any other type or none is as valid as it.
        if object[&name].is_null() {
            continue;
        }
        let (value, ok) = field(u, object[&name].clone())?;
        let required = matches!(name.as_str(), "request_uuid" | "token");
        // An absent optional field takes its default; the two required ones must be there.
        valid &= ok || (value.is_none() && !required);
        match value {
            Some(value) => object.insert(name, value),
            None => object.remove(&name),
        };
    }
    let body = serde_json::to_vec(&object).unwrap_or_else(|e| panic!("a map serializes: {e}"));
    let text = String::from_utf8_lossy(&body).into_owned();
    let at = NOW + u.int_in_range(-2 * TIMESTAMP_TOLERANCE..=2 * TIMESTAMP_TOLERANCE)?;
    let timestamp = at.to_string();
    let signature = wallet::signature(SECRET, &timestamp, "POST", PATH, &body);
    let fresh = (at - NOW).abs() <= TIMESTAMP_TOLERANCE;
    assert_eq!(wallet::signed(SECRET, &timestamp, &signature, PATH, &body, NOW), fresh, "signed at {at}: {text}");
    if !fresh {
        return Ok(());
    }
    let read = serde_json::from_slice::<WalletRequest>(&body).ok();
    assert_eq!(read.is_some(), valid, "accepted exactly when the fields are valid: {text}");
    if let Some(read) = read.filter(|_| object.len() == 10) {
        assert_eq!(serde_json::to_value(read).ok(), serde_json::to_value(&request).ok(), "{text}");
    }

    let mut changed = body.clone();
    let index = u.choose_index(changed.len())?;
    changed[index] ^= u.int_in_range(1..=255)?;
    assert!(!wallet::signed(SECRET, &timestamp, &signature, PATH, &changed, NOW), "a changed byte at {index}: {text}");
    let other = (at + u.int_in_range(1..=TIMESTAMP_TOLERANCE)?).to_string();
    assert!(!wallet::signed(SECRET, &other, &signature, PATH, &body, NOW), "signed at {at}, accepted at {other}");
    assert!(!wallet::signed(SECRET, &timestamp, &signature, "/provider/wallet/hub/win", &body, NOW), "another action");
    assert!(!wallet::signed(b"another secret", &timestamp, &signature, PATH, &body, NOW), "another secret");
    Ok(())
}
