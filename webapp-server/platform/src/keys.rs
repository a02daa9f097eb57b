//! The installation's signing key: `CROUPIER_SECRET_KEY` when configured, otherwise generated at
//! the first start and kept in `app_settings`, so every replica (and every restart) shares it.
//! It signs one-time codes (only their MAC is stored) and unsubscribe links.

use crate::db::{Db, now_ms};
use anyhow::Context as _;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

#[derive(Clone)]
pub struct Keys {
    key: [u8; 32],
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keys([redacted])")
    }
}

impl Keys {
    pub async fn load(db: &Db, configured: Option<&str>) -> anyhow::Result<Keys> {
        let hex_key = match configured {
            Some(key) => key.to_owned(),
            None => {
                let fresh = hex::encode(rand::random::<[u8; 32]>());
                // Two replicas starting together: the first insert wins, both read the winner.
                sqlx::query(
                    "INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING",
                )
                .bind("secret_key")
                .bind(&fresh)
                .bind(now_ms())
                .execute(db.pool())
                .await?;
                sqlx::query_scalar("SELECT value FROM app_settings WHERE key = $1")
                    .bind("secret_key")
                    .fetch_one(db.pool())
                    .await?
            }
        };
        let bytes = hex::decode(hex_key.trim()).context("the secret key is not hexadecimal")?;
        let key: [u8; 32] = bytes.try_into().map_err(|_| anyhow::anyhow!("the secret key is not 32 bytes"))?;
        Ok(Keys { key })
    }

    /// Keys from raw bytes (unit tests of what signs with them).
    pub fn from_key(key: [u8; 32]) -> Keys {
        Keys { key }
    }

    fn mac_of(&self, purpose: &str, parts: &[&str]) -> HmacSha256 {
        let mut mac = <HmacSha256 as KeyInit>::new_from_slice(&self.key)
            .unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
        mac.update(purpose.as_bytes());
        for part in parts {
            mac.update(b"\x1f");
            mac.update(part.as_bytes());
        }
        mac
    }

    /// Hex HMAC-SHA256 of `parts`, domain-separated by `purpose`.
    pub fn sign(&self, purpose: &str, parts: &[&str]) -> String {
        hex::encode(self.mac_of(purpose, parts).finalize().into_bytes())
    }

    /// Constant-time check of a [`Keys::sign`] result.
    pub fn verify(&self, purpose: &str, parts: &[&str], signature_hex: &str) -> bool {
        match hex::decode(signature_hex) {
            Ok(tag) => self.mac_of(purpose, parts).verify_slice(&tag).is_ok(),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_verify_only_for_the_same_purpose_and_parts() {
        let keys = Keys { key: [7; 32] };
        let sig = keys.sign("code", &["contact", "a@b.c", "123456"]);
        assert!(keys.verify("code", &["contact", "a@b.c", "123456"], &sig));
        assert!(!keys.verify("code", &["contact", "a@b.c", "123457"], &sig));
        assert!(!keys.verify("link", &["contact", "a@b.c", "123456"], &sig));
        assert!(!keys.verify("code", &["contacta@b.c", "123456"], &sig), "parts are separated");
        assert!(!keys.verify("code", &["contact", "a@b.c", "123456"], "zz"));
        let other = Keys { key: [8; 32] };
        assert!(!other.verify("code", &["contact", "a@b.c", "123456"], &sig));
    }
}
