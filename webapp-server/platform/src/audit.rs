//! The trail of refused guesses: every wrong password, code or promo code at a guessable entry
//! point, and every rate limit that trips, is one append-only row of `security_refusals`.
//!
//! What is kept: the action (`login`, `two_factor`, `promo_code`, `cms_login`, …), the reason
//! (`wrong_credentials`, `code_invalid`, `rate_limited`, …), the subject the attempt named (a
//! login, a contact, a rate-limit key — never the password or code that was tried), the player
//! when known, and the caller's address.
//!
//! A rate limit is recorded once per window and key, when it trips (the first refused hit):
//! later hits in the same window are refused by the limiter without a write, so a flood of
//! requests cannot turn into a flood of rows. Every other refusal is written, and those are
//! bounded by the limits themselves.
//!
//! Writing the row never changes the answer: a failed write is logged and the caller still gets
//! its refusal (the refusal matters more than its record, and the database being down is
//! reported elsewhere).

use crate::db::{Db, now_ms};
use std::net::IpAddr;

/// One refused attempt.
#[derive(Debug, Clone, Copy)]
pub struct Refusal<'a> {
    pub action: &'a str,
    pub reason: &'a str,
    pub subject: Option<&'a str>,
    pub user_id: Option<i64>,
    pub ip: Option<IpAddr>,
}

/// The longest subject kept: a login, a contact or a limiter key is far shorter; anything longer
/// was made up by the caller and only its start is useful.
const SUBJECT_MAX: usize = 200;

/// Appends `refusal` to the trail.
pub async fn record(db: &Db, refusal: Refusal<'_>) {
    let subject = refusal.subject.map(|s| s.chars().take(SUBJECT_MAX).collect::<String>());
    let written = sqlx::query(
        "INSERT INTO security_refusals (action, reason, subject, user_id, ip, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(refusal.action)
    .bind(refusal.reason)
    .bind(subject)
    .bind(refusal.user_id)
    .bind(refusal.ip.map(|ip| ip.to_string()))
    .bind(now_ms())
    .execute(db.pool())
    .await;
    if let Err(e) = written {
        tracing::error!(action = refusal.action, reason = refusal.reason, error = %e, "refusal not recorded");
    }
}

/// Whether a rate-limit decision is the one that trips the limit (the first refused hit of its
/// window), which is the one [`record`]ed.
pub fn trips(count: u64, max: u64) -> bool {
    max.checked_add(1) == Some(count)
}

#[cfg(test)]
mod tests {
    use super::trips;

    #[test]
    fn only_the_first_refused_hit_of_a_window_trips() {
        assert!(!trips(10, 10));
        assert!(trips(11, 10));
        assert!(!trips(12, 10));
        assert!(trips(1, 0));
        assert!(!trips(u64::MAX, u64::MAX));
    }
}
