//! The house provider: Croupier's own provably-fair games, played through the same wallet code
//! (`wallet::bet` and `wallet::win`) an external aggregator's calls run. A round is one database
//! transaction: the seed's nonce advances, the bet is taken, the outcome derived, the win paid
//! and the round recorded together.

mod batch;
pub mod classic;
pub mod dice;
mod error;
pub mod fair;
#[doc(hidden)]
pub mod fuzzing;
mod info;
pub mod mines;
mod mines_steps;
mod page;
pub mod plinko;
pub mod roulette;
mod round;
mod seeds;
pub mod video;

use super::wallet::{self, WalletRequest};
use crate::AppState;
use crate::db::now_ms;
use crate::features::bonuses::Rules;
use crate::features::freespins;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use croupier_shared::{Currency, Money};
pub use error::HouseError;
use futures::future::BoxFuture;
use info::{game_state, paytable};
use mines_steps::{mines_cashout, mines_public, mines_reveal, open_mines};
use round::round;
use seeds::{TokenQuery, change_seeds, history, next_nonce, seeds, verify};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::AnyConnection;

pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/games/house/{sysname}", get(page::game_page))
        .route("/games/house/{sysname}/tile.svg", get(page::tile))
        .route("/games/house/{sysname}/paytable", get(paytable))
        .route("/games/house/{sysname}/round", post(round))
        // Mines only: a round of several steps.
        .route("/games/house/{sysname}/reveal", post(mines_reveal))
        .route("/games/house/{sysname}/cashout", post(mines_cashout))
        .route("/games/house/{sysname}/state", get(game_state))
        .route("/games/house/assets/{file}", get(page::asset))
        .route("/games/house/fairness", get(seeds).post(change_seeds))
        .route("/games/house/verify", get(verify))
        .route("/games/house/history", get(history))
}

/// The house games' sysnames.
pub const GAMES: [&str; 6] = ["dice", "lucky-sevens", "gem-rush", "roulette", "mines", "plinko"];

/// A game's table limits: the smallest bet in hundredths of a major unit and the largest in
/// major units (any currency), and the largest win as a multiple of the bet.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub min_hundredths: i64,
    pub max_major: i64,
    pub max_multiplier: i64,
    pub rtp_bp: i64,
}

pub fn limits(sysname: &str) -> Option<Limits> {
    let (min_hundredths, max_major, max_multiplier, rtp_bp) = match sysname {
        "dice" => (10, 100, 50, dice::RTP_BP),
        "lucky-sevens" => (10, 50, classic::THREE[0].1, classic::RTP_BP),
        "gem-rush" => (10, 50, video::MAX_MULTIPLIER, video::RTP_BP),
        "roulette" => (10, 200, 36, roulette::RTP_BP),
        "mines" => (10, 100, mines::MAX_MULTIPLIER, mines::RTP_BP),
        "plinko" => (10, 100, 1_000, plinko::RTP_BP),
        _ => return None,
    };
    Some(Limits { min_hundredths, max_major, max_multiplier, rtp_bp })
}

impl Limits {
    /// The smallest and largest bet in minor units of `currency`.
    pub fn bets(self, currency: Currency) -> (i64, i64) {
        let scale = currency.scale();
        ((self.min_hundredths * scale / 100).max(1), self.max_major * scale)
    }

    /// The win of a round: the game's multiple-of-bet cap and [`MAX_WIN_MAJOR`] both apply.
    pub fn cap(self, bet: i64, win: i128, currency: Currency) -> i64 {
        let scale = i128::from(currency.scale());
        let capped = win.min(i128::from(bet) * i128::from(self.max_multiplier)).min(i128::from(MAX_WIN_MAJOR) * scale);
        i64::try_from(capped.max(0)).unwrap_or(i64::MAX)
    }
}

/// The largest win of one round, in major units.
pub const MAX_WIN_MAJOR: i64 = 5_000;

/// The launch session of a house game, still valid.
pub(super) async fn live_session(
    conn: &mut AnyConnection,
    token: &str,
    sysname: &str,
) -> Result<wallet::GameSession, HouseError> {
    let session = wallet::find_session(conn, token).await.map_err(HouseError::internal)?;
    check_live(session, sysname)
}

/// [`live_session`] in a round's transaction, the player's `users` row locked with the read on
/// PostgreSQL (`wallet::find_session_locked`, what `Db::lock_user` does).
pub(super) async fn live_session_locked(
    conn: &mut AnyConnection,
    token: &str,
    sysname: &str,
) -> Result<wallet::GameSession, HouseError> {
    let session = wallet::find_session_locked(conn, token).await.map_err(HouseError::internal)?;
    check_live(session, sysname)
}

fn check_live(session: Option<wallet::GameSession>, sysname: &str) -> Result<wallet::GameSession, HouseError> {
    let Some(session) = session.filter(|s| s.sysname == sysname && s.provider == "house") else {
        return Err(HouseError::InvalidToken);
    };
    if session.expires_at < now_ms() {
        return Err(HouseError::TokenExpired);
    }
    Ok(session)
}

/// The wallet call of a house round: `amount` of the session's player, in its currency.
pub(super) fn wallet_request(
    round_id: &str,
    session: &wallet::GameSession,
    token: &str,
    amount: Money,
) -> WalletRequest {
    WalletRequest {
        request_uuid: format!("{round_id}:{}", amount.minor()),
        transaction_uuid: format!("{round_id}:bet"),
        reference_transaction_uuid: None,
        round: round_id.to_owned(),
        round_closed: false,
        user: session.user_id.to_string(),
        token: token.to_owned(),
        game_code: session.sysname.clone(),
        currency: amount.currency().code().to_owned(),
        amount: amount.minor(),
    }
}

/// The wallet call that pays a round's win (possibly nothing) and closes it.
pub(super) fn settle_request(round_id: &str, session: &wallet::GameSession, token: &str, win: Money) -> WalletRequest {
    WalletRequest {
        transaction_uuid: format!("{round_id}:win"),
        reference_transaction_uuid: Some(format!("{round_id}:bet")),
        round_closed: true,
        ..wallet_request(round_id, session, token, win)
    }
}

/// Pays a round's win (possibly nothing) and closes it. `placed` is the round's bet when it was
/// taken in this transaction, whose session was read in it: the win then skips the replay lookup
/// and the second session read ([`wallet::win_in`]).
#[allow(clippy::too_many_arguments)]
pub(super) async fn settle(
    conn: &mut AnyConnection,
    round_id: &str,
    session: &wallet::GameSession,
    token: &str,
    win: Money,
    to: wallet::WinTo,
    placed: Option<&wallet::Placed>,
    rules: &Rules,
) -> Result<i64, HouseError> {
    let request = settle_request(round_id, session, token, win);
    let settled = match placed {
        Some(placed) => wallet::win_in(conn, "house", &request, session, to, Some(placed), rules).await,
        None => wallet::win_to(conn, "house", &request, to, rules).await,
    }
    .map_err(HouseError::from)?;
    Ok(settled.balance.unwrap_or(0))
}

/// The session of `token` for `sysname`, read before a change is queued: its player picks the
/// group committer's lane (the change reads it again in its transaction).
pub(super) async fn session_before(
    state: &AppState,
    token: &str,
    sysname: &str,
) -> Result<wallet::GameSession, HouseError> {
    let mut conn = state.db().pool().acquire().await.map_err(HouseError::internal)?;
    let session = live_session(&mut conn, token, sysname).await?;
    state.hot().put_game_player(&wallet::token_hash(token), session.user_id);
    Ok(session)
}

/// Runs one round's or step's change through the group committer on `player`'s lane (see
/// `db::group`), like the wallet's calls: it shares a transaction with other players' changes,
/// and on PostgreSQL it never waits on another lane's rows. The change must be re-runnable: it
/// is a function of the connection, and everything it did is undone when its batch rolls back
/// (a round drawn again after a rollback uses the same seed and nonce, so the same outcome).
pub(super) async fn on_lane<F>(state: &AppState, player: i64, change: F) -> Result<Value, HouseError>
where
    F: for<'c> Fn(&'c mut AnyConnection) -> BoxFuture<'c, Result<Value, HouseError>> + Send + Sync + 'static,
{
    state.db().group(player, crate::db::group::job(change)).await
}
