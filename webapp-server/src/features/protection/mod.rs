//! Player protection (issue 21): responsible gaming ([`rg`]), identity verification ([`kyc`]),
//! support ([`support`]), and the operators' bans, verification overrides and maintenance switch
//! ([`admin`]).
//!
//! **Where responsible gaming is enforced.** A time-out or self-exclusion in force is kept on the
//! player's row (`users.blocked_until`, `blocked_kind`), so every money path reads it with the
//! player and needs no other query:
//! - [`guard`] refuses, with `PlayerExcludedException`: deposits, bonus activation, promo codes
//!   and offers, cashback payouts (site and bot button), loyalty shop purchases, and real-money
//!   game launches;
//! - the wallet's bet (house rounds and aggregators alike) refuses real-money bets
//!   (`features::games::wallet`), and loss and wager limits there (`account::limits`);
//! - promotional Telegram notices are skipped at delivery (`notify::PROMOTIONS_OFF`) and every
//!   contact is unsubscribed from marketing when the exclusion starts (re-subscribing is refused
//!   until it ends). Transactional messages (a withdrawal paid) still go.
//!
//! Withdrawals stay open: an excluded player must be able to take their money out, and so may
//! sign in (the site shows what applies, from `account.getInfo`'s `exclusion`).

pub mod admin;
pub mod kyc;
pub mod rg;
pub mod support;

use crate::AppState;
use crate::api::{ApiError, Registry};
use crate::db::now_ms;
use croupier_shared::ErrorType;
use schemars::JsonSchema;
use serde::Serialize;

pub fn register(api: &mut Registry) {
    rg::register(api);
    kyc::register(api);
    support::register(api);
}

/// The feature's own HTTP routes: the verification webhooks and the operators' API.
/// `/admin/players/{id}/verification`, for the back office's verification review.
pub fn verification_admin() -> axum::Router<AppState> {
    admin::verification_routes()
}

/// `/admin/support/feedback`, for the back office's support messages.
pub fn feedback_admin() -> axum::Router<AppState> {
    admin::feedback_routes()
}

pub fn routes() -> axum::Router<AppState> {
    axum::Router::new().route("/webhooks/kyc/{provider}", axum::routing::post(kyc::webhook)).merge(admin::routes())
}

/// A time-out or self-exclusion in force.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq, Eq)]
pub struct Exclusion {
    /// time_out or self_exclusion.
    pub kind: String,
    /// When it ends, unix seconds.
    pub until: i64,
}

impl Exclusion {
    /// The exclusion in force at `now` from the player's row, if any.
    pub fn in_force(until: Option<i64>, kind: Option<&str>, now: i64) -> Option<Exclusion> {
        match until {
            Some(until) if until > now => {
                Some(Exclusion { kind: kind.unwrap_or(rg::TIME_OUT).to_owned(), until: until / 1000 })
            }
            _ => None,
        }
    }

    pub fn error(&self) -> ApiError {
        ApiError::new(ErrorType::PlayerExcludedException)
            .with_data("kind", self.kind.clone())
            .with_data("until", self.until)
    }
}

/// What stands between a player and a money movement, read in one query.
#[derive(sqlx::FromRow)]
struct Gates {
    blocked_until: Option<i64>,
    blocked_kind: Option<String>,
    is_kyc_block_enabled: i64,
    is_verified: i64,
}

/// Which gates a money action passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// No time-out or self-exclusion in force (`PlayerExcludedException`).
    Exclusion,
    /// No operator's KYC block while unverified (`SumsubVerificationRequiredException`).
    Kyc,
}

/// Refuses a money action that does not pass `gates`, with one read of the player's row. Call it
/// in the action's transaction (after locking the player where the action does).
pub async fn check(conn: &mut sqlx::AnyConnection, user_id: i64, gates: &[Gate]) -> Result<(), ApiError> {
    let row: Option<Gates> = sqlx::query_as(
        "SELECT blocked_until, blocked_kind, is_kyc_block_enabled, is_verified FROM users WHERE id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    let Some(row) = row else { return Ok(()) };
    if gates.contains(&Gate::Exclusion)
        && let Some(exclusion) = Exclusion::in_force(row.blocked_until, row.blocked_kind.as_deref(), now_ms())
    {
        return Err(exclusion.error());
    }
    if gates.contains(&Gate::Kyc) && row.is_kyc_block_enabled != 0 && row.is_verified == 0 {
        return Err(ApiError::new(ErrorType::SumsubVerificationRequiredException));
    }
    Ok(())
}

/// Refuses a money action while a time-out or self-exclusion is in force ([`check`] of that gate).
pub async fn guard(conn: &mut sqlx::AnyConnection, user_id: i64) -> Result<(), ApiError> {
    check(conn, user_id, &[Gate::Exclusion]).await
}

/// [`guard`] on a connection of its own, for actions whose transaction runs elsewhere (on a
/// group-committer lane). The player was signed out when the exclusion started, so the window
/// between this read and the action is a stale tab at most.
pub async fn refuse_if_excluded(state: &AppState, user_id: i64) -> Result<(), ApiError> {
    let mut conn = state.db().pool().acquire().await?;
    guard(&mut conn, user_id).await
}
