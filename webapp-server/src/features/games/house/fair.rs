//! Provably fair randomness (after Stake's scheme, DESIGN.md "House games"): bytes =
//! HMAC-SHA256(key = server seed, message = `client_seed:nonce:cursor`), read 4 at a time as a
//! number in [0, 1). The server seed's SHA-256 is shown before play; the seed itself only after
//! rotation, so every past round can be re-derived by the player. Outcomes use these numbers;
//! money never does (payouts are integer arithmetic on minor units).

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// `count` numbers in [0, 1) for one round.
pub fn floats(server_seed: &str, client_seed: &str, nonce: i64, count: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(count);
    let mut cursor = 0_u64;
    while out.len() < count {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(server_seed.as_bytes())
            .unwrap_or_else(|_| unreachable!("any key length"));
        mac.update(format!("{client_seed}:{nonce}:{cursor}").as_bytes());
        let bytes = mac.finalize().into_bytes();
        for chunk in bytes.chunks(4) {
            if out.len() == count {
                break;
            }
            let value = chunk
                .iter()
                .enumerate()
                .fold(0.0_f64, |acc, (i, b)| acc + f64::from(*b) / 256_f64.powi(i32::try_from(i).unwrap_or(0) + 1));
            out.push(value);
        }
        cursor += 1;
    }
    out
}

pub fn hash_seed(server_seed: &str) -> String {
    hex::encode(Sha256::digest(server_seed.as_bytes()))
}

pub fn new_server_seed() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

pub fn new_client_seed() -> String {
    hex::encode(rand::random::<[u8; 8]>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_deterministic_in_range_and_depend_on_every_input() {
        let a = floats("server", "client", 1, 12);
        assert_eq!(a, floats("server", "client", 1, 12));
        assert_eq!(a.len(), 12, "more than one HMAC block when needed");
        assert!(a.iter().all(|f| (0.0..1.0).contains(f)));
        assert_ne!(a, floats("server", "client", 2, 12));
        assert_ne!(a, floats("server", "other", 1, 12));
        assert_ne!(a, floats("other", "client", 1, 12));
        // bytes 0x80 0 0 0 give exactly one half.
        assert_eq!(
            [0x80_u8, 0, 0, 0]
                .iter()
                .enumerate()
                .fold(0.0_f64, |acc, (i, b)| acc + f64::from(*b) / 256_f64.powi(i as i32 + 1)),
            0.5
        );
    }
}
