//! Identity verification (KYC). Each provider sits behind [`KycProvider`]: [`sumsub`] talks to
//! Sumsub's API; [`sandbox`] is a working stand-in with its own verification page that sends the
//! same signed webhooks, so development and tests go through the path a real review takes.
//!
//! **Webhooks** (both adapters speak Sumsub's format, received at `/webhooks/kyc/{provider}`):
//! `X-Payload-Digest` is the hex HMAC of the raw body with the webhook secret, under the algorithm
//! `X-Payload-Digest-Alg` names (`HMAC_SHA1_HEX`, `HMAC_SHA256_HEX` or `HMAC_SHA512_HEX`; a
//! missing or other algorithm is refused). The digest is compared in constant time. The body is
//! [`ReviewEvent`]; its `createdAtMs` orders events (an older event never overwrites a newer
//! one's outcome, so a GREEN later turned RED ends RED whatever order they arrive in), and the
//! digest names the event (the same body twice is a replay, applied once).

pub mod sandbox;
pub mod sumsub;

use crate::config::{Config, KycConfig};
use crate::db::Db;
use crate::keys::Keys;
use futures::future::BoxFuture;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

pub const DIGEST_HEADER: &str = "x-payload-digest";
pub const DIGEST_ALG_HEADER: &str = "x-payload-digest-alg";

/// What the player's page needs to start a verification.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AccessToken {
    /// The WebSDK access token.
    pub token: String,
    /// The provider's user id the token is for (our external user id).
    pub user_id: String,
    /// The page to open instead of the WebSDK (the sandbox's local verification page); `null`
    /// for a provider whose WebSDK the client loads with `token`.
    pub url: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum KycError {
    #[error("the verification provider refused: {0}")]
    Refused(String),
    #[error("the verification provider is unreachable: {0}")]
    Unavailable(String),
}

/// A verification provider's adapter. It holds what it needs and never the application's state.
pub trait KycProvider: Send + Sync {
    fn name(&self) -> &'static str;
    /// Creates the applicant for `external_user_id` at `level` (an existing one is found again);
    /// answers the provider's applicant id.
    fn create_applicant<'a>(
        &'a self,
        external_user_id: &'a str,
        level: &'a str,
    ) -> BoxFuture<'a, Result<String, KycError>>;
    /// Issues a WebSDK access token for the applicant (`external_action_id`: a one-off check).
    fn access_token<'a>(
        &'a self,
        external_user_id: &'a str,
        level: &'a str,
        external_action_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<AccessToken, KycError>>;
    /// The secret of this provider's webhook digests.
    fn webhook_secret(&self) -> &[u8];
}

/// The provider this deployment runs.
pub struct Kyc {
    provider: Arc<dyn KycProvider>,
    sandbox: Option<Arc<sandbox::Sandbox>>,
}

impl Kyc {
    pub fn from_config(
        config: &Config,
        db: &Db,
        keys: &Keys,
        local_addr: Arc<OnceLock<SocketAddr>>,
    ) -> anyhow::Result<Kyc> {
        Ok(match &config.kyc {
            KycConfig::Sandbox { .. } => {
                let sandbox = Arc::new(sandbox::Sandbox::new(db.clone(), keys, &config.public_url, local_addr));
                Kyc { provider: Arc::clone(&sandbox) as Arc<dyn KycProvider>, sandbox: Some(sandbox) }
            }
            KycConfig::Sumsub { url, app_token, secret_key, webhook_secret, .. } => Kyc {
                provider: Arc::new(sumsub::Sumsub::new(url, app_token, secret_key, webhook_secret)?),
                sandbox: None,
            },
        })
    }

    pub fn provider(&self) -> &dyn KycProvider {
        self.provider.as_ref()
    }

    /// The sandbox adapter, when it runs (its page is served only then).
    pub fn sandbox(&self) -> Option<&sandbox::Sandbox> {
        self.sandbox.as_deref()
    }
}

/// The review of a verification, as the provider's webhook sends it (Sumsub's shape).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ReviewEvent {
    /// applicantCreated, applicantPending, applicantReviewed, applicantOnHold, applicantReset, …
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub applicant_id: String,
    pub external_user_id: String,
    #[serde(default)]
    pub level_name: Option<String>,
    #[serde(default)]
    pub review_status: Option<String>,
    #[serde(default)]
    pub review_result: Option<ReviewResult>,
    /// `yyyy-MM-dd HH:mm:ss.SSS`, UTC.
    pub created_at_ms: String,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ReviewResult {
    /// GREEN or RED.
    pub review_answer: String,
    #[serde(default)]
    pub reject_labels: Vec<String>,
    /// FINAL or RETRY (with RED).
    #[serde(default)]
    pub review_reject_type: Option<String>,
    /// For the player.
    #[serde(default)]
    pub moderation_comment: Option<String>,
    /// For the operator only: never shown to the player.
    #[serde(default)]
    pub client_comment: Option<String>,
}

impl ReviewEvent {
    /// `createdAtMs` as unix milliseconds.
    pub fn created_ms(&self) -> Option<i64> {
        parse_timestamp(&self.created_at_ms)
    }
}

/// `yyyy-MM-dd HH:mm:ss[.SSS]` (UTC) as unix milliseconds.
pub fn parse_timestamp(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, time) = text.split_once([' ', 'T'])?;
    let mut d = date.split('-');
    let (y, m, day): (i64, i64, i64) = (d.next()?.parse().ok()?, d.next()?.parse().ok()?, d.next()?.parse().ok()?);
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) || !(1970..=9999).contains(&y) {
        return None;
    }
    let time = time.trim_end_matches('Z');
    let (hms, millis) = time.split_once('.').unwrap_or((time, "0"));
    let mut t = hms.split(':');
    let (h, mi, s): (i64, i64, i64) = (t.next()?.parse().ok()?, t.next()?.parse().ok()?, t.next()?.parse().ok()?);
    // Negative parts too: `13:-5:00` is no time, and a huge one overflowed (found by fuzzing).
    if t.next().is_some()
        || !(0..=23).contains(&h)
        || !(0..=59).contains(&mi)
        || !(0..=60).contains(&s)
        || millis.len() > 3
        || !millis.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let millis: i64 = format!("{millis:0<3}").parse().ok()?;
    let days = crate::time::days_from_civil(y, m, day);
    Some(((days * 24 + h) * 60 + mi) * 60_000 + s * 1000 + millis)
}

/// Unix milliseconds as `yyyy-MM-dd HH:mm:ss.SSS` (UTC), the inverse of [`parse_timestamp`].
pub fn format_timestamp(ms: i64) -> String {
    let (y, m, day) = crate::time::civil_from_days(ms.div_euclid(86_400_000));
    let rest = ms.rem_euclid(86_400_000);
    format!(
        "{y:04}-{m:02}-{day:02} {:02}:{:02}:{:02}.{:03}",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000
    )
}

/// The digest algorithms a webhook may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DigestAlg {
    Sha1,
    Sha256,
    Sha512,
}

impl DigestAlg {
    pub fn parse(text: &str) -> Option<DigestAlg> {
        match text.trim() {
            "HMAC_SHA1_HEX" => Some(DigestAlg::Sha1),
            "HMAC_SHA256_HEX" => Some(DigestAlg::Sha256),
            "HMAC_SHA512_HEX" => Some(DigestAlg::Sha512),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DigestAlg::Sha1 => "HMAC_SHA1_HEX",
            DigestAlg::Sha256 => "HMAC_SHA256_HEX",
            DigestAlg::Sha512 => "HMAC_SHA512_HEX",
        }
    }
}

/// Hex HMAC of `body` with `secret` under `alg`.
pub fn digest(alg: DigestAlg, secret: &[u8], body: &[u8]) -> String {
    fn run<M: Mac + KeyInit>(secret: &[u8], body: &[u8]) -> String {
        let mut mac = <M as KeyInit>::new_from_slice(secret).unwrap_or_else(|_| unreachable!("any key length"));
        mac.update(body);
        hex::encode(mac.finalize().into_bytes())
    }
    match alg {
        DigestAlg::Sha1 => run::<Hmac<sha1::Sha1>>(secret, body),
        DigestAlg::Sha256 => run::<Hmac<sha2::Sha256>>(secret, body),
        DigestAlg::Sha512 => run::<Hmac<sha2::Sha512>>(secret, body),
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum DigestError {
    Missing,
    /// The algorithm header names no algorithm we accept.
    Algorithm,
    Invalid,
}

/// Checks a webhook's digest header against its raw body, in constant time.
pub fn verify(secret: &[u8], alg: Option<&str>, given: Option<&str>, body: &[u8]) -> Result<DigestAlg, DigestError> {
    let (Some(alg), Some(given)) = (alg, given) else { return Err(DigestError::Missing) };
    let alg = DigestAlg::parse(alg).ok_or(DigestError::Algorithm)?;
    let given = hex::decode(given.trim()).map_err(|_| DigestError::Invalid)?;
    let expected = hex::decode(digest(alg, secret, body)).map_err(|_| DigestError::Invalid)?;
    let same = crate::crypto::same_bytes(&given, &expected);
    if same { Ok(alg) } else { Err(DigestError::Invalid) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_round_trip_and_refuse_nonsense() {
        assert_eq!(parse_timestamp("1970-01-01 00:00:00.000"), Some(0));
        assert_eq!(parse_timestamp("2020-02-21 13:23:19.321"), Some(1_582_291_399_321));
        assert_eq!(parse_timestamp("2020-02-21 13:23:19"), Some(1_582_291_399_000));
        assert_eq!(parse_timestamp("2020-02-21 13:23:19.3"), Some(1_582_291_399_300));
        for ms in [0, 1_582_291_399_321, 1_767_225_599_999, 4_102_444_800_000] {
            assert_eq!(parse_timestamp(&format_timestamp(ms)), Some(ms), "{ms}");
        }
        for bad in [
            "",
            "2020-02-21",
            "2020-13-01 00:00:00",
            "2020-02-21 25:00:00",
            "x-y-z 1:2:3",
            "2020-02-21 13:23:19.1234",
            "2020-02-21 13:-5:19",
            "2020-02-21 13:23:-922337203677580819",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn digests_match_recorded_examples_and_check_the_algorithm() {
        // Recorded with `printf '{"a":1}' | openssl dgst -sha256 -hmac secret` (and -sha1, -sha512).
        let body = br#"{"a":1}"#;
        assert_eq!(
            digest(DigestAlg::Sha256, b"secret", body),
            "aa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494"
        );
        assert_eq!(digest(DigestAlg::Sha1, b"secret", body), "f8446672f033e4b2beafc5ca3a71eafcd2cafb6e");
        assert!(
            digest(DigestAlg::Sha512, b"secret", body)
                .starts_with("42f08c0da01c9a46d4e5663d5f2140526a016507c598182c6769cca2bcf7ba43")
        );
        let sig = digest(DigestAlg::Sha256, b"secret", body);
        assert_eq!(verify(b"secret", Some("HMAC_SHA256_HEX"), Some(&sig), body), Ok(DigestAlg::Sha256));
        assert_eq!(verify(b"secret", Some("HMAC_SHA1_HEX"), Some(&sig), body), Err(DigestError::Invalid));
        assert_eq!(verify(b"secret", Some("HMAC_MD5_HEX"), Some(&sig), body), Err(DigestError::Algorithm));
        assert_eq!(verify(b"secret", None, Some(&sig), body), Err(DigestError::Missing));
        assert_eq!(verify(b"other", Some("HMAC_SHA256_HEX"), Some(&sig), body), Err(DigestError::Invalid));
        assert_eq!(verify(b"secret", Some("HMAC_SHA256_HEX"), Some(&sig), br#"{"a":2}"#), Err(DigestError::Invalid));
        assert_eq!(verify(b"secret", Some("HMAC_SHA256_HEX"), Some("zz"), body), Err(DigestError::Invalid));
        for alg in [DigestAlg::Sha1, DigestAlg::Sha512] {
            let sig = digest(alg, b"secret", body);
            assert_eq!(verify(b"secret", Some(alg.name()), Some(&sig), body), Ok(alg));
        }
    }
}
