//! The wallet's hooks into tournaments and jackpots: called inside a bet's, win's or rollback's
//! own transaction (house rounds and aggregators' wallet calls alike), and only when the game
//! session's read says a running tournament or an active pool covers the game
//! ([`GameSession::competing`]), so a plain bet costs nothing more.
//!
//! A replayed wallet call never reaches these hooks (the wallet answers it from its record), so
//! a score is counted once per call; a rollback takes back exactly what its bet scored, read from
//! `tournament_points`. Scores change only inside a tournament's window: a rollback after the end
//! leaves the final score alone.

use super::board;
use crate::db::now_ms;
use crate::features::games::wallet::GameSession;
use crate::features::jackpots;
use croupier_shared::Currency;
use sqlx::AnyConnection;
use std::collections::BTreeMap;

/// A bet as the hooks see it: its ledger key, its round, the whole stake and the part paid with
/// real money (jackpots take their share of that part only).
#[derive(Debug, Clone, Copy)]
pub struct Bet<'a> {
    pub key: &'a str,
    pub round_id: i64,
    pub amount: i64,
    pub real_part: i64,
}

/// A win, with its round's totals after it.
#[derive(Debug, Clone, Copy)]
pub struct Win<'a> {
    pub key: &'a str,
    pub round_id: i64,
    pub amount: i64,
    pub round_bet: i64,
    pub round_win: i64,
}

#[derive(Debug, sqlx::FromRow)]
struct Row {
    id: i64,
    scoring: String,
    participation: String,
    min_bet: Option<i64>,
    rates: String,
}

/// A running tournament that counts the bet's currency, with that currency's rate (read once).
struct Running {
    id: i64,
    scoring: String,
    participation: String,
    min_bet: Option<i64>,
    /// Millionths of the first currency per minor unit of the bet's currency.
    factor: i64,
}

impl Running {
    /// `amount` of the bet's currency in the tournament's first currency (rounded down).
    fn convert(&self, amount: i64) -> i64 {
        scale(amount, self.factor)
    }
}

fn scale(amount: i64, factor: i64) -> i64 {
    i64::try_from(i128::from(amount) * i128::from(factor) / 1_000_000).unwrap_or(i64::MAX)
}

/// The tournaments running now that cover `game_id` and count bets in `currency`.
async fn running(
    conn: &mut AnyConnection,
    game_id: i64,
    currency: Currency,
    now: i64,
) -> Result<Vec<Running>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT t.id, t.scoring, t.participation, t.min_bet, t.rates FROM tournaments t \
         WHERE t.status = 'scheduled' AND t.starts_at <= $1 AND t.ends_at > $1 AND EXISTS (SELECT 1 FROM competition_games c \
         WHERE c.kind = 'tournament' AND c.ref_id = t.id AND c.game_id IN ($2, 0))",
    )
    .bind(now)
    .bind(game_id)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|t| {
            let factor = rate(&t.rates, currency)?;
            Some(Running { id: t.id, scoring: t.scoring, participation: t.participation, min_bet: t.min_bet, factor })
        })
        .collect())
}

/// The factor (millionths) turning minor units of `currency` into minor units of the
/// tournament's first currency; none when the tournament does not count that currency.
pub fn rate(rates: &str, currency: Currency) -> Option<i64> {
    serde_json::from_str::<BTreeMap<String, i64>>(rates).ok()?.get(currency.code()).copied()
}

/// `amount` of `currency` in the tournament's first currency (rounded down).
pub fn convert(amount: i64, rates: &str, currency: Currency) -> Option<i64> {
    Some(scale(amount, rate(rates, currency)?))
}

/// The share of a stake of `sysname` that counts for "points" tournaments, in percent: the
/// same contribution table as bonus wagering (the game's row, else its type's, else 100).
async fn contribution(conn: &mut AnyConnection, sysname: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT CAST(COALESCE((SELECT c.percent FROM bonus_contributions c WHERE (c.scope = 'game' AND c.name = $1) \
         OR (c.scope = 'type' AND c.name = (SELECT g.game_type FROM games g WHERE g.sysname = $1)) \
         ORDER BY CASE WHEN c.scope = 'game' THEN 0 ELSE 1 END LIMIT 1), 100) AS BIGINT)",
    )
    .bind(sysname)
    .fetch_one(conn)
    .await
}

/// A real-money bet: scores it in every running tournament that counts bets, adds each
/// covering pool's contribution, and answers what a jackpot this bet triggered paid to the
/// player's main balance (0 for none).
pub async fn on_bet(
    conn: &mut AnyConnection,
    session: &GameSession,
    currency: Currency,
    bet: &Bet<'_>,
) -> Result<i64, sqlx::Error> {
    let now = now_ms();
    for t in running(conn, session.game_id, currency, now).await? {
        if !matches!(t.scoring.as_str(), "stake" | "points") {
            continue;
        }
        let value = t.convert(bet.amount);
        if t.min_bet.is_some_and(|min| value < min) {
            continue;
        }
        let points =
            if t.scoring == "points" { value * contribution(conn, &session.sysname).await? / 100 } else { value };
        if points <= 0 {
            continue;
        }
        if board::add(conn, t.id, session.user_id, points, now, t.participation == "automatic").await? {
            sqlx::query(
                "INSERT INTO tournament_points (tournament_id, wallet_key, user_id, points) VALUES ($1, $2, $3, $4)",
            )
            .bind(t.id)
            .bind(bet.key)
            .bind(session.user_id)
            .bind(points)
            .execute(&mut *conn)
            .await?;
        }
    }
    jackpots::on_bet(conn, session, currency, bet, now).await
}

/// A real-money win: scores it in the running tournaments that count wins ("win": the amount;
/// "multiplier": the round's win ÷ its bet, in hundredths, the best round kept).
pub async fn on_win(
    conn: &mut AnyConnection,
    session: &GameSession,
    currency: Currency,
    win: &Win<'_>,
) -> Result<(), sqlx::Error> {
    let now = now_ms();
    for t in running(conn, session.game_id, currency, now).await? {
        let automatic = t.participation == "automatic";
        let (bet, won) = (t.convert(win.round_bet), t.convert(win.amount));
        if bet <= 0 || t.min_bet.is_some_and(|min| bet < min) {
            continue;
        }
        match t.scoring.as_str() {
            "win" if won > 0 => {
                board::add(conn, t.id, session.user_id, won, now, automatic).await?;
            }
            "multiplier" => {
                let multiplier = i64::try_from(i128::from(win.round_win) * 100 / i128::from(win.round_bet.max(1)))
                    .unwrap_or(i64::MAX);
                if multiplier > 0 {
                    board::best(conn, t.id, session.user_id, multiplier, now, automatic).await?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A rolled-back bet (its wallet key): what it scored in tournaments still running is taken back.
pub async fn on_rollback(conn: &mut AnyConnection, bet_key: &str) -> Result<(), sqlx::Error> {
    let now = now_ms();
    let scored: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT p.tournament_id, p.user_id, p.points FROM tournament_points p JOIN tournaments t ON t.id = p.tournament_id \
         WHERE p.wallet_key = $1 AND t.status = 'scheduled' AND t.ends_at > $2",
    )
    .bind(bet_key)
    .bind(now)
    .fetch_all(&mut *conn)
    .await?;
    for (tournament, user, points) in scored {
        board::add(conn, tournament, user, -points, now, false).await?;
        sqlx::query("DELETE FROM tournament_points WHERE wallet_key = $1 AND tournament_id = $2")
            .bind(bet_key)
            .bind(tournament)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::convert;
    use croupier_shared::Currency;

    #[test]
    fn amounts_convert_into_the_first_currency_rounding_down_and_other_currencies_do_not_count() {
        let rates = r#"{"USD":1000000,"EUR":1086956}"#;
        let usd = Currency::parse("USD").unwrap();
        let eur = Currency::parse("EUR").unwrap();
        let gbp = Currency::parse("GBP").unwrap();
        assert_eq!(convert(1_234, rates, usd), Some(1_234));
        assert_eq!(convert(1_000, rates, eur), Some(1_086));
        assert_eq!(convert(1_000, rates, gbp), None);
        assert_eq!(convert(1, "not json", usd), None);
    }
}
