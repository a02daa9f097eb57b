//! Any bytes through both init-data checks and the Login Widget check (refused or accepted, never a
//! panic), and init data signed from fields built from the bytes verifies to exactly those fields
//! while a changed byte does not. The stable harness (`shared/tests/fuzz.rs`) runs the same entry.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| croupier_shared::fuzzing::init_data(data));
