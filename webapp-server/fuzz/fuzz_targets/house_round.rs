//! The stable harness (`webapp-server/tests/api/fuzz.rs`) runs the same entry: see its docs in
//! `croupier_server::fuzzing`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| croupier_server::fuzzing::house_round(data));
