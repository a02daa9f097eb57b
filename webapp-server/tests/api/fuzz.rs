//! Fuzzing on stable Rust (see `shared/tests/support/fuzzer.rs`): the entry points of
//! `croupier_server::fuzzing` — the content API's query grammar, a house round's request and the
//! provider wallet's signed calls — seeded with real examples (this suite's and the query
//! parser's requests). They call the library, not the server: millions of cases in `make fuzz`
//! would take days over HTTP. `make test` runs the small budget, `make fuzz` ten million
//! executions per target.

#[path = "../../../shared/tests/support/fuzzer.rs"]
mod fuzzer;

use croupier_server::fuzzing;

/// Executions per target in `make test`: a fraction of a second each.
const SMALL: u64 = 20_000;

#[test]
fn fuzz_content_query() {
    let seeds: &[&[u8]] = &[
        b"filters[slug][$eq]=home&populate[0]=logo&sort=title:desc",
        b"filters%5Bslug%5D%5B%24eq%5D=home&populate%5B0%5D=logo&sort=title%3Adesc",
        b"populate[menu][populate]=*&populate[footer][populate]=deep",
        b"populate[0]=deep&populate[1]=7",
        b"sort=group:asc,order:desc&pagination[withCount]=false",
        b"utm_source=x&_q=slots&foo[bar]=1&filters[slug]=home",
        b"filters[slug]=home",
    ];
    fuzzer::run("content_query", SMALL, seeds, fuzzing::content_query);
}

#[test]
fn fuzz_house_round() {
    // The first byte picks the game (index in `house::GAMES`), the second the currency (0: USD).
    let seeds: &[&[u8]] = &[
        b"\x00\x00{\"token\":\"t\",\"bet\":\"1.00\",\"target\":\"50.00\",\"condition\":\"under\"}",
        b"\x00\x01{\"token\":\"t\",\"bet\":\"0.10\",\"target\":49.5,\"condition\":\"over\"}",
        b"\x01\x00{\"token\":\"t\",\"bet\":\"5.00\"}",
        b"\x02\x00{\"token\":\"t\",\"bet\":\"50.00\",\"freespin\":false}",
        b"\x03\x00{\"token\":\"t\",\"bet\":\"200.00\",\"bets\":[{\"type\":\"straight\",\"number\":17,\"amount\":\"100.00\"},{\"type\":\"red\",\"amount\":\"50.00\"},{\"type\":\"dozen\",\"number\":2,\"amount\":\"50.00\"}]}",
        b"\x04\x00{\"token\":\"t\",\"bet\":\"1.00\",\"mines\":3}",
        b"\x05\x00{\"token\":\"t\",\"bet\":\"10.00\",\"rows\":12,\"risk\":\"medium\"}",
        b"\x05\x00{\"token\":\"t\",\"bet\":\"100.00\",\"rows\":\"8\",\"risk\":\"low\"}",
        // Found by this target: chips whose sum overflowed (a panic before the checked sum).
        b"\x03\x00{\"token\":\"t\",\"bet\":\"200.00\",\"bets\":[{\"type\":\"red\",\"amount\":\"92233720368547758.07\"},{\"type\":\"black\",\"amount\":\"92233720368547758.07\"}]}",
    ];
    fuzzer::run("house_round", SMALL, seeds, fuzzing::house_round);
}

#[test]
fn fuzz_wallet() {
    let seeds: &[&[u8]] = &[
        b"1760000000\n5d41402abc4b2a76b9719d911017c592\n{\"request_uuid\":\"6f1c0e1e-1b7a-4f5e-9d1e-3c1a2b3c4d5e\",\"transaction_uuid\":\"tx-1\",\"round\":\"r-1\",\"round_closed\":false,\"user\":\"42\",\"token\":\"tok\",\"game_code\":\"book_of_dead\",\"currency\":\"EUR\",\"amount\":150}",
        b"1760000010\n00\n{\"request_uuid\":\"u-2\",\"transaction_uuid\":\"tx-2\",\"reference_transaction_uuid\":\"tx-1\",\"round\":\"r-1\",\"round_closed\":true,\"token\":\"tok\",\"currency\":\"EUR\",\"amount\":300}",
        b"1759999990\nzz\n{\"request_uuid\":\"u-3\",\"token\":\"tok\"}",
        // Found by this target: a timestamp of i64::MIN overflowed the freshness check.
        b"-9223372036854775808",
    ];
    fuzzer::run("wallet", SMALL, seeds, fuzzing::wallet);
}
