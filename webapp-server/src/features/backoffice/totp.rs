//! Operators' second factor: TOTP (RFC 6238) over HOTP (RFC 4226) with HMAC-SHA-1, 6 digits and
//! 30-second steps, the parameters every authenticator app assumes; a code of the step before or
//! after is accepted too (clock drift), and a step once accepted is never accepted again.
//!
//! The secret (20 random bytes, shown once in Base32 at enrolment and as an `otpauth://` QR code)
//! is kept sealed with the installation key (`keys`): XOR with an HMAC-SHA256 keystream of a
//! random nonce, plus a MAC over nonce and ciphertext, so a copy of the table alone gives no
//! secret and a tampered row is refused.

use crate::keys::Keys;
use hmac::{Hmac, KeyInit, Mac};
use sha1::Sha1;

pub const STEP_SECONDS: i64 = 30;
pub const DIGITS: u32 = 6;
pub const SECRET_BYTES: usize = 20;
const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// RFC 4648 Base32, upper case, without padding (as authenticator apps read it).
pub fn base32_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &byte in bytes {
        buffer = (buffer << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(ALPHABET[((buffer >> bits) & 31) as usize]));
        }
    }
    if bits > 0 {
        out.push(char::from(ALPHABET[((buffer << (5 - bits)) & 31) as usize]));
    }
    out
}

/// Decodes Base32 ignoring case, spaces and `=` padding; `None` on any other character.
pub fn base32_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.bytes().filter(|c| !matches!(c, b' ' | b'=')) {
        let value = ALPHABET.iter().position(|&a| a == c.to_ascii_uppercase())?;
        buffer = (buffer << 5) | u32::try_from(value).ok()?;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((buffer >> bits) & 0xff).ok()?);
        }
    }
    Some(out)
}

/// HOTP (RFC 4226): the `digits`-digit code of `counter`.
pub fn hotp(secret: &[u8], counter: u64, digits: u32) -> u32 {
    let mut mac = <Hmac<Sha1> as KeyInit>::new_from_slice(secret).unwrap_or_else(|_| unreachable!("any key length"));
    mac.update(&counter.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let offset = usize::from(digest[19] & 0x0f);
    let binary =
        u32::from_be_bytes([digest[offset] & 0x7f, digest[offset + 1], digest[offset + 2], digest[offset + 3]]);
    binary % 10u32.pow(digits)
}

/// The TOTP time step of a Unix time.
pub fn step_of(unix_seconds: i64) -> i64 {
    unix_seconds.div_euclid(STEP_SECONDS)
}

/// The code at `unix_seconds`, zero-padded.
pub fn code_at(secret: &[u8], unix_seconds: i64) -> String {
    let step = u64::try_from(step_of(unix_seconds)).unwrap_or(0);
    format!("{:06}", hotp(secret, step, DIGITS))
}

/// The step `code` matches among the current one ±1 and later than `last_step`, if any.
pub fn verify(secret: &[u8], code: &str, unix_seconds: i64, last_step: i64) -> Option<i64> {
    let code = code.trim();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let now = step_of(unix_seconds);
    [now - 1, now, now + 1].into_iter().filter(|&step| step > last_step && step >= 0).find(|&step| {
        let expected = format!("{:06}", hotp(secret, u64::try_from(step).unwrap_or(0), DIGITS));
        crate::crypto::same_bytes(expected.as_bytes(), code.as_bytes())
    })
}

/// A fresh secret.
pub fn new_secret() -> [u8; SECRET_BYTES] {
    rand::random()
}

fn keystream(keys: &Keys, nonce: &str) -> Vec<u8> {
    hex::decode(keys.sign("operator-totp-stream", &[nonce])).unwrap_or_default()
}

/// The secret sealed for storage: `v1:<nonce>:<ciphertext>:<tag>` (hex parts).
pub fn seal(keys: &Keys, secret: &[u8]) -> String {
    let nonce = hex::encode(rand::random::<[u8; 16]>());
    let sealed: Vec<u8> = secret.iter().zip(keystream(keys, &nonce)).map(|(s, k)| s ^ k).collect();
    let ciphertext = hex::encode(sealed);
    let tag = keys.sign("operator-totp-tag", &[&nonce, &ciphertext]);
    format!("v1:{nonce}:{ciphertext}:{tag}")
}

/// The secret of a [`seal`]ed text; `None` when it was altered or sealed under another key.
pub fn unseal(keys: &Keys, text: &str) -> Option<Vec<u8>> {
    let mut parts = text.split(':');
    let (Some("v1"), Some(nonce), Some(ciphertext), Some(tag), None) =
        (parts.next(), parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    if !keys.verify("operator-totp-tag", &[nonce, ciphertext], tag) {
        return None;
    }
    let sealed = hex::decode(ciphertext).ok()?;
    if sealed.len() > 32 {
        return None;
    }
    Some(sealed.iter().zip(keystream(keys, nonce)).map(|(s, k)| s ^ k).collect())
}

/// The `otpauth://` address authenticator apps read from the QR code.
pub fn otpauth_url(email: &str, secret_base32: &str) -> String {
    let label: String = percent_encoding::utf8_percent_encode(email, percent_encoding::NON_ALPHANUMERIC).to_string();
    format!("otpauth://totp/Croupier:{label}?secret={secret_base32}&issuer=Croupier&algorithm=SHA1&digits=6&period=30")
}

/// `url` as a QR code, in SVG.
pub fn qr_svg(url: &str) -> Option<String> {
    let code = qrcode::QrCode::new(url.as_bytes()).ok()?;
    Some(code.render::<qrcode::render::svg::Color<'_>>().min_dimensions(200, 200).build())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B, SHA-1 rows (the seed is the ASCII "12345678901234567890").
    #[test]
    fn rfc_6238_vectors() {
        let secret = b"12345678901234567890";
        for (time, code) in [
            (59, 94_287_082),
            (1_111_111_109, 7_081_804),
            (1_111_111_111, 14_050_471),
            (1_234_567_890, 89_005_924),
            (2_000_000_000, 69_279_037),
            (20_000_000_000, 65_353_130),
        ] {
            assert_eq!(hotp(secret, u64::try_from(step_of(time)).unwrap(), 8), code, "T={time}");
            assert_eq!(code_at(secret, time), format!("{:06}", code % 1_000_000));
        }
    }

    /// RFC 4226 appendix D.
    #[test]
    fn rfc_4226_vectors() {
        let expected = [755_224, 287_082, 359_152, 969_429, 338_314, 254_676, 287_922, 162_583, 399_871, 520_489];
        for (counter, code) in expected.into_iter().enumerate() {
            assert_eq!(hotp(b"12345678901234567890", counter as u64, 6), code);
        }
    }

    /// RFC 4648 section 10.
    #[test]
    fn base32_rfc_4648_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "MY"),
            ("fo", "MZXQ"),
            ("foo", "MZXW6"),
            ("foob", "MZXW6YQ"),
            ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI"),
        ] {
            assert_eq!(base32_encode(plain.as_bytes()), encoded);
            assert_eq!(base32_decode(encoded).unwrap(), plain.as_bytes());
        }
        assert_eq!(base32_decode("mzxw6ytboi======").unwrap(), b"foobar");
        assert_eq!(base32_decode("MZ1"), None);
        assert_eq!(base32_encode(b"12345678901234567890"), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    }

    #[test]
    fn a_code_is_good_within_one_step_and_once() {
        let secret = b"12345678901234567890";
        let now = 1_111_111_111;
        let code = code_at(secret, now);
        assert_eq!(verify(secret, &code, now, 0), Some(step_of(now)));
        assert_eq!(verify(secret, &code, now + 30, 0), Some(step_of(now)));
        assert_eq!(verify(secret, &code, now - 30, 0), Some(step_of(now)));
        assert_eq!(verify(secret, &code, now + 90, 0), None);
        assert_eq!(verify(secret, &code, now, step_of(now)), None, "replayed");
        assert_eq!(verify(secret, "12345", now, 0), None);
        assert_eq!(verify(secret, "abcdef", now, 0), None);
    }

    #[test]
    fn sealed_secrets_open_only_unaltered_and_under_their_key() {
        let keys = Keys::from_key([3; 32]);
        let secret = new_secret();
        let sealed = seal(&keys, &secret);
        assert!(!sealed.contains(&hex::encode(secret)));
        assert_eq!(unseal(&keys, &sealed).unwrap(), secret);
        assert_eq!(unseal(&Keys::from_key([4; 32]), &sealed), None);
        let mut altered = sealed.clone();
        let flip = altered.len() - 70;
        altered.replace_range(flip..=flip, if &sealed[flip..=flip] == "0" { "1" } else { "0" });
        assert_eq!(unseal(&keys, &altered), None);
    }

    #[test]
    fn the_enrolment_address_and_qr_code() {
        let url = otpauth_url("a+b@example.com", "GEZDGNBV");
        assert!(url.starts_with("otpauth://totp/Croupier:a%2Bb%40example%2Ecom?secret=GEZDGNBV&issuer=Croupier"));
        assert!(qr_svg(&url).unwrap().contains("<svg"));
    }
}
