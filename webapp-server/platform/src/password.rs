//! Password hashing: argon2id with the crate's recommended parameters, off the async threads.

use crate::api::ApiError;
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use std::sync::LazyLock;

/// Verified against when the login is unknown, so both paths cost one argon2 run and the
/// answer time does not reveal whether an account exists.
static DUMMY_HASH: LazyLock<String> = LazyLock::new(|| {
    let salt = fresh_salt();
    Argon2::default().hash_password(b"not a real password", &salt).map(|h| h.to_string()).unwrap_or_default()
});

/// 16 random bytes from the OS-seeded generator, as argon2's salt.
fn fresh_salt() -> SaltString {
    SaltString::encode_b64(&rand::random::<[u8; 16]>()).unwrap_or_else(|_| unreachable!("16 bytes always encode"))
}

pub async fn hash(password: &str) -> Result<String, ApiError> {
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        let salt = fresh_salt();
        Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string())
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(|e| ApiError::internal(anyhow::anyhow!("argon2: {e}")))
}

/// Whether `password` matches `stored`; with no stored hash, a dummy check keeps the timing.
pub async fn verify(password: &str, stored: Option<&str>) -> Result<bool, ApiError> {
    let password = password.to_owned();
    let (stored, real) = match stored {
        Some(hash) => (hash.to_owned(), true),
        None => (DUMMY_HASH.clone(), false),
    };
    let matches = tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored)
            .is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
    })
    .await
    .map_err(ApiError::internal)?;
    Ok(real && matches)
}
