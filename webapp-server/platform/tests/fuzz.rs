//! Fuzzing on stable Rust (see `shared/tests/support/fuzzer.rs`): the entry points of
//! `croupier_platform::fuzzing` — the form and multipart body parsers and the payment and
//! identity-verification webhooks' signature checks and bodies — seeded with real examples (the
//! parsers' and the webhooks' unit-test vectors, Sumsub's documented review event). `make test`
//! runs the small budget, `make fuzz` ten million executions per target.

#[path = "../../../shared/tests/support/fuzzer.rs"]
mod fuzzer;

use croupier_platform::fuzzing;

/// Executions per target in `make test`: a fraction of a second each.
const SMALL: u64 = 20_000;

#[test]
fn fuzz_form() {
    let seeds: &[&[u8]] = &[
        b"a=1&b=x+y&c=%C3%A9t%C3%A9&flag&&d=",
        b"name=%FF%FE",
        b"%FF=1",
        b"email=player%40example.com&password=s3cret%21&remember=1",
        b"amount=10.50&currency=EUR&method=sandbox_card&requisites=4111+1111+1111+1111",
        b"",
    ];
    fuzzer::run("form", SMALL, seeds, fuzzing::form);
}

#[test]
fn fuzz_multipart() {
    let seeds: &[&[u8]] = &[
        b"multipart/form-data; boundary=XyZ\n--XyZ\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\nplayer@example.com\r\n--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n\xc3\xa9t\xc3\xa9\r\n--XyZ--\r\n",
        b"multipart/form-data; boundary=----formdata-42\n------formdata-42\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n------formdata-42--\r\n",
        b"multipart/form-data\n--x\r\n\r\n--x--",
        b"application/x-www-form-urlencoded; charset=utf-8\na=1&b=x+y",
        b"text/plain\nhello",
    ];
    fuzzer::run("multipart", SMALL, seeds, fuzzing::multipart);
}

#[test]
fn fuzz_payment_webhook() {
    let seeds: &[&[u8]] = &[
        b"1760000000\n0000000000000000000000000000000000000000000000000000000000000000\n{\"event_id\":\"evt-1\",\"payment_id\":\"p-1\",\"status\":\"success\",\"amount\":1050,\"currency\":\"EUR\"}",
        b"1000\nzz\n{}",
        b"1759999999\n00\n{\"event_id\":\"e\",\"payment_id\":\"p\",\"status\":\"fail\",\"amount\":-1,\"currency\":\"usd\"}",
        // Found by this target: a timestamp of i64::MIN overflowed the freshness check.
        b"-9223372036854775808",
    ];
    fuzzer::run("payment_webhook", SMALL, seeds, fuzzing::payment_webhook);
}

#[test]
fn fuzz_kyc_webhook() {
    let seeds: &[&[u8]] = &[
        b"HMAC_SHA256_HEX\naa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494\n{\"a\":1}",
        b"HMAC_SHA1_HEX\nf8446672f033e4b2beafc5ca3a71eafcd2cafb6e\n{\"type\":\"applicantReviewed\",\"applicantId\":\"5cb56e8e0a975a35f333cb83\",\"externalUserId\":\"cr-42\",\"reviewStatus\":\"completed\",\"reviewResult\":{\"reviewAnswer\":\"RED\",\"rejectLabels\":[\"ID_INVALID\"],\"reviewRejectType\":\"RETRY\",\"moderationComment\":\"Blurry photo\"},\"createdAtMs\":\"2020-02-21 13:23:19.321\"}",
        b"HMAC_SHA512_HEX\n00\n{\"type\":\"applicantPending\",\"externalUserId\":\"cr-1\",\"createdAtMs\":\"2020-02-21 13:23:19\"}",
        // Found by this target: a negative, huge second overflowed the timestamp's reading.
        b"HMAC_SHA512_HEX\n00\n{\"type\":\"applicantPending\",\"externalUserId\":\"cr-1\",\"createdAtMs\":\"2020-02-21 13:23:-922337203677580819\"}",
    ];
    fuzzer::run("kyc_webhook", SMALL, seeds, fuzzing::kyc_webhook);
}
