//! The stable harness (`webapp-server/platform/tests/fuzz.rs`) runs the same entry: see its docs
//! in `croupier_platform::fuzzing`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| croupier_platform::fuzzing::multipart(data));
