//! Small cryptographic helpers several parts share: HMAC-SHA256 and HS256 JWTs.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// HMAC-SHA256 of `data` under `key`.
pub fn hmac_sha256(key: &[u8], data: &[u8]) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).unwrap_or_else(|_| unreachable!("any key length"));
    mac.update(data);
    mac.finalize().into_bytes().into()
}

/// [`hmac_sha256`] in lower-case hex.
pub fn hmac_sha256_hex(key: &[u8], data: &[u8]) -> String {
    hex::encode(hmac_sha256(key, data))
}

/// Whether `a` and `b` are the same bytes, looking at every byte whatever the first difference,
/// so the time taken tells nothing about where a guess went wrong (only the lengths may differ
/// visibly, and those are public: a digest's or a signature's).
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// An HS256 JWT over `claims`; `sign` answers the MAC of the signed part (`header.payload`).
pub fn jwt_hs256(claims: &serde_json::Value, sign: impl FnOnce(&str) -> Vec<u8>) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let signed = format!("{header}.{}", URL_SAFE_NO_PAD.encode(claims.to_string()));
    let signature = sign(&signed);
    format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_needs_every_byte_and_the_length() {
        assert!(same_bytes(b"abc", b"abc"));
        assert!(same_bytes(b"", b""));
        assert!(!same_bytes(b"abc", b"abd"));
        assert!(!same_bytes(b"abc", b"xbc"));
        assert!(!same_bytes(b"abc", b"abcd"));
    }

    #[test]
    fn macs_and_tokens_match_recorded_examples() {
        // printf 42 | openssl dgst -sha256 -hmac s
        assert_eq!(hmac_sha256_hex(b"s", b"42"), "94568d5108ef7f10a4703672424461bc51540ee0fffa1b7dea9414dca202bbe0");
        // printf '%s' "$header.$payload" | openssl dgst -sha256 -hmac s -binary | base64url
        let jwt = jwt_hs256(&serde_json::json!({"a": 1}), |signed| hmac_sha256(b"s", signed.as_bytes()).to_vec());
        assert_eq!(jwt, "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhIjoxfQ.sad3AhpjllXE_XL6lSwwMXhV_4WThhyMgxWlDkDaBHQ");
    }
}
