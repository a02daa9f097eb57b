//! Any bytes through the deep-link decoder: it must never panic, and whatever decodes must
//! re-encode to a payload of the same length that decodes to the same link; a link built from
//! the bytes, once encoded, decodes to itself. The stable harness (`shared/tests/fuzz.rs`) runs
//! the same entry.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| croupier_shared::fuzzing::deep_link(data));
