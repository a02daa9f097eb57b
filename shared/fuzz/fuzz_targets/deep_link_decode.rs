//! Any bytes through the deep-link decoder: it must never panic, and whatever decodes must
//! re-encode to a payload of the same length that decodes to the same link.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| croupier_shared::telegram::deep_link::fuzz_decode(data));
