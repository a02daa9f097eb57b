//! [`HouseError`]: why a house-game call was refused or failed. Domain code returns it; its one
//! [`IntoResponse`] gives the documented answer `{"error": code, "message": text}` with the
//! status of each case, at the handler.

use super::super::wallet::WalletError;
use crate::ledger::LedgerError;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use croupier_shared::Money;
use serde_json::json;

#[derive(Debug)]
pub enum HouseError {
    /// The game session's token names no live house session of this game.
    InvalidToken,
    TokenExpired,
    UnknownGame,
    /// A mines action asked of another game.
    NoSuchAction,
    /// The round's parameters, with what to choose instead.
    InvalidParams(&'static str),
    InvalidBet,
    BetLimits {
        min: Money,
        max: Money,
    },
    NotEnoughMoney,
    /// A bonus is being wagered: bets go up to its maximum bet.
    BonusMaxBet(Money),
    UserDisabled,
    /// A time-out or self-exclusion is in force (its end, unix seconds).
    Excluded {
        until: i64,
    },
    /// The bet would pass a loss or wager limit.
    PlayLimit {
        kind: &'static str,
        period: String,
        available: Money,
    },
    /// Any other refusal of the wallet (its `RS_ERROR_*` status).
    WalletRefused(&'static str),
    NoFreeSpins,
    /// A mines round is in play: finish it first.
    RoundOpen,
    /// A mines round is in play: the seeds it was dealt from cannot be revealed yet.
    RoundOpenSeeds,
    /// A mines step with no round in play.
    NoRound,
    InvalidCurrency,
    InvalidClientSeed,
    /// The database could not be reached for a read.
    Unavailable,
    /// Something failed inside (logged where it happened; the player sees no detail).
    Internal,
}

impl HouseError {
    /// An internal failure: logged here, answered without detail.
    pub fn internal(e: impl std::fmt::Display) -> HouseError {
        tracing::error!(error = %e, "house round failed");
        HouseError::Internal
    }

    fn parts(&self) -> (StatusCode, &'static str, String) {
        use HouseError::*;
        let (status, code, message): (StatusCode, &'static str, &str) = match self {
            InvalidToken => {
                (StatusCode::UNAUTHORIZED, "invalid_token", "This game session is not valid. Open the game again.")
            }
            TokenExpired => {
                (StatusCode::UNAUTHORIZED, "token_expired", "This game session has expired. Open the game again.")
            }
            UnknownGame => (StatusCode::NOT_FOUND, "unknown_game", "This game does not exist."),
            NoSuchAction => (StatusCode::NOT_FOUND, "unknown_game", "This game has no such action."),
            InvalidParams(message) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_params", message),
            InvalidBet => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_bet", "The bet is not an amount."),
            BetLimits { min, max } => {
                let message = format!(
                    "Bets go from {} to {} {}.",
                    min.to_decimal_string(),
                    max.to_decimal_string(),
                    min.currency()
                );
                return (StatusCode::UNPROCESSABLE_ENTITY, "bet_limits", message);
            }
            BonusMaxBet(max) => {
                let message = format!(
                    "While a bonus is being wagered, bets go up to {} {}.",
                    max.to_decimal_string(),
                    max.currency()
                );
                return (StatusCode::CONFLICT, "bonus_max_bet", message);
            }
            NotEnoughMoney => (StatusCode::PAYMENT_REQUIRED, "not_enough_money", "Not enough money for this bet."),
            UserDisabled => (StatusCode::FORBIDDEN, "user_disabled", "This account cannot play."),
            Excluded { .. } => (
                StatusCode::CONFLICT,
                "excluded",
                "Your time-out or self-exclusion is in force: real-money play is not available until it ends.",
            ),
            PlayLimit { .. } => {
                (StatusCode::CONFLICT, "play_limit", "This bet would go over your loss or wager limit.")
            }
            WalletRefused(status) => (StatusCode::CONFLICT, status, "The round was refused."),
            NoFreeSpins => (StatusCode::CONFLICT, "no_free_spins", "No free spins left for this game."),
            RoundOpen => (StatusCode::CONFLICT, "round_open", "Finish the round in play first."),
            RoundOpenSeeds => (StatusCode::CONFLICT, "round_open", "Finish the round in play before changing seeds."),
            NoRound => (StatusCode::CONFLICT, "no_round", "Place a bet to start a round."),
            InvalidCurrency => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_currency", "Unknown currency."),
            InvalidClientSeed => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_client_seed",
                "A client seed is 1 to 64 letters and digits.",
            ),
            Unavailable => (StatusCode::SERVICE_UNAVAILABLE, "unavailable", "Try again."),
            Internal => (StatusCode::INTERNAL_SERVER_ERROR, "internal", "Something went wrong."),
        };
        (status, code, message.to_owned())
    }
}

/// The refusal's code and message (the group committer logs a merged round's failure with it).
impl std::fmt::Display for HouseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (status, code, message) = self.parts();
        write!(f, "{code} ({}): {message}", status.as_u16())
    }
}

impl IntoResponse for HouseError {
    fn into_response(self) -> Response {
        let (status, code, message) = self.parts();
        if let HouseError::BonusMaxBet(max) = &self {
            // The page fills its own language's message with it.
            let max_bet = format!("{} {}", max.to_decimal_string(), max.currency());
            return (status, Json(json!({ "error": code, "message": message, "max_bet": max_bet }))).into_response();
        }
        match &self {
            HouseError::Excluded { until } => {
                (status, Json(json!({ "error": code, "message": message, "until": until }))).into_response()
            }
            HouseError::PlayLimit { kind, period, available } => {
                let available = format!("{} {}", available.to_decimal_string(), available.currency());
                let body = json!({ "error": code, "message": message, "kind": kind, "period": period, "available": available });
                (status, Json(body)).into_response()
            }
            _ => (status, Json(json!({ "error": code, "message": message }))).into_response(),
        }
    }
}

impl From<sqlx::Error> for HouseError {
    fn from(e: sqlx::Error) -> HouseError {
        HouseError::internal(e)
    }
}

impl From<LedgerError> for HouseError {
    fn from(e: LedgerError) -> HouseError {
        HouseError::internal(e)
    }
}

impl From<WalletError> for HouseError {
    fn from(e: WalletError) -> HouseError {
        match e {
            WalletError::Status("RS_ERROR_NOT_ENOUGH_MONEY") => HouseError::NotEnoughMoney,
            WalletError::Status("RS_ERROR_USER_DISABLED") => HouseError::UserDisabled,
            WalletError::Status(status) => HouseError::WalletRefused(status),
            // Only a bet meets it, and the round maps it with its currency first.
            WalletError::MaxBet(_) => HouseError::WalletRefused("RS_ERROR_LIMIT_REACHED"),
            WalletError::Excluded(exclusion) => HouseError::Excluded { until: exclusion.until },
            // The round maps it with its currency first.
            WalletError::PlayLimit(_) => HouseError::WalletRefused("RS_ERROR_LIMIT_REACHED"),
            WalletError::Db(e) => HouseError::internal(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use croupier_shared::Currency;

    #[test]
    fn each_refusal_keeps_its_documented_status_and_code() {
        let usd = Currency::parse("USD").unwrap_or_else(|| unreachable!());
        let cases = [
            (HouseError::InvalidToken, 401, "invalid_token"),
            (HouseError::NotEnoughMoney, 402, "not_enough_money"),
            (HouseError::UserDisabled, 403, "user_disabled"),
            (HouseError::NoSuchAction, 404, "unknown_game"),
            (HouseError::WalletRefused("RS_ERROR_DUPLICATE_TRANSACTION"), 409, "RS_ERROR_DUPLICATE_TRANSACTION"),
            (HouseError::Internal, 500, "internal"),
        ];
        for (error, status, code) in cases {
            let (s, c, _) = error.parts();
            assert_eq!((s.as_u16(), c), (status, code));
        }
        let limits = HouseError::BetLimits { min: Money::from_minor(10, usd), max: Money::from_minor(10_000, usd) };
        assert_eq!(limits.parts().2, "Bets go from 0.10 to 100.00 USD.");
    }
}
