//! Any bytes through both init-data checks and the Login Widget check: refused or accepted,
//! never a panic.
#![no_main]

use croupier_shared::telegram::{init_data, login_widget};
use libfuzzer_sys::fuzz_target;
use std::time::{Duration, UNIX_EPOCH};

fuzz_target!(|data: &[u8]| {
    let raw = String::from_utf8_lossy(data);
    let now = UNIX_EPOCH + Duration::from_secs(1_760_000_000);
    let day = Duration::from_secs(86_400);
    let _ = init_data::verify_hmac(&raw, "123456789:fuzz", day, now);
    let _ = init_data::verify_ed25519(&raw, 123_456_789, day, now, init_data::Environment::Production);
    let _ = login_widget::verify_query(&raw, "123456789:fuzz", day, now);
});
