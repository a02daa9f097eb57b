//! Any bytes as a content-API query string: parsing must never panic, only refuse.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    croupier_server::features::content::query::fuzz_one(data);
});
