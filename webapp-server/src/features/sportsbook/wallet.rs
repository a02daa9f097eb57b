//! The sportsbook's internal wallet: every money movement of a sports bet, whoever prices it.
//! House bets (`bets`, `settlement`) and external providers' bets (`provider`) call these same
//! functions inside their own transaction; each is one ledger transaction with an idempotency key
//! derived from the bet ([`BetMoney`]), so a replayed call moves nothing twice.
//!
//! - [`reserve_stake`]: the stake, from the player's main or betting-bonus balance to the house's
//!   `sportsbook_settlement` account (`{bet}:stake`).
//! - [`pay`]: a settlement version — the difference between what the bet is owed now and what it
//!   has been paid, between that account (and, for an odds boost, the bonus liability) and the
//!   player's main balance (`{bet}:v{n}`, `n` the bet's next settlement version). Settle,
//!   resettle, cash-out and rollback (a target of 0: the payout back) are all differences, so a
//!   corrected result moves only what changed.
//! - [`cancel`]: the stake back to the balance it came from, and whatever was paid taken back,
//!   in one movement (`{bet}:cancel`).
//!
//! A claw-back the player's balance cannot cover is refused by the ledger
//! ([`LedgerError::InsufficientFunds`]); the caller decides whether to retry (house settlement)
//! or refuse the call (a provider retries it).

use crate::ledger::{self, Account, Entry, HouseAccount, LedgerError, PlayerAccount, Posting};
use croupier_shared::Currency;
use sqlx::AnyConnection;

/// Whose bet the money belongs to and how its ledger entries are keyed.
#[derive(Debug, Clone)]
pub struct BetMoney {
    /// The prefix of the bet's ledger keys: `sportsbook:bet:{id}` for a house bet,
    /// `sportsbook:{provider}:bet:{id}` for a provider's (its row in `sb_provider_bets`).
    pub prefix: String,
    pub user_id: i64,
    pub currency: Currency,
    /// The entries' reference: the house bet's id, or `{provider}:{provider's bet id}`.
    pub reference: String,
}

impl BetMoney {
    pub fn house(bet_id: i64, user_id: i64, currency: Currency) -> BetMoney {
        BetMoney { prefix: format!("sportsbook:bet:{bet_id}"), user_id, currency, reference: bet_id.to_string() }
    }

    pub fn provider(provider: &str, bet_id: i64, bet_ref: &str, user_id: i64, currency: Currency) -> BetMoney {
        BetMoney {
            prefix: format!("sportsbook:{provider}:bet:{bet_id}"),
            user_id,
            currency,
            reference: format!("{provider}:{bet_ref}"),
        }
    }

    fn player(&self, kind: PlayerAccount) -> Account {
        Account::Player { user_id: self.user_id, kind }
    }

    async fn post(
        &self,
        conn: &mut AnyConnection,
        key: &str,
        kind: &str,
        postings: Vec<Posting>,
    ) -> Result<(), LedgerError> {
        if postings.iter().all(|p| p.amount == 0) {
            return Ok(());
        }
        let postings = postings.into_iter().filter(|p| p.amount != 0).collect();
        let entry = Entry {
            key,
            kind,
            user_id: Some(self.user_id),
            reference: Some(&self.reference),
            currency: self.currency,
            postings,
        };
        ledger::post(conn, &entry).await.map(|_| ())
    }
}

const HOUSE: Account = Account::House(HouseAccount::SportsbookSettlement);

/// Moves the stake `amount` from the player's `funds` balance to the house's sportsbook account.
pub async fn reserve_stake(
    conn: &mut AnyConnection,
    bet: &BetMoney,
    funds: PlayerAccount,
    amount: i64,
) -> Result<(), LedgerError> {
    let key = format!("{}:stake", bet.prefix);
    let postings = vec![Posting { account: bet.player(funds), amount: -amount }, Posting { account: HOUSE, amount }];
    bet.post(conn, &key, "sportsbook_stake", postings).await
}

/// Settlement `version` of the bet: `delta` between the house's sportsbook account and the
/// player's main balance (to the player when positive), with an odds boost's `boost_delta`
/// from the house's bonus liability, in one ledger transaction. Nothing to move: no entry.
pub async fn pay(
    conn: &mut AnyConnection,
    bet: &BetMoney,
    version: i64,
    delta: i64,
    boost_delta: i64,
    kind: &str,
) -> Result<(), LedgerError> {
    let key = format!("{}:v{version}", bet.prefix);
    let postings = vec![
        Posting { account: HOUSE, amount: -delta },
        Posting { account: Account::House(HouseAccount::BonusLiability), amount: -boost_delta },
        Posting { account: bet.player(PlayerAccount::Main), amount: delta + boost_delta },
    ];
    bet.post(conn, &key, kind, postings).await
}

/// Undoes a settlement back to open: what the bet was paid (`paid`, and an odds boost's
/// `boost_paid`) goes back as settlement `version`.
pub async fn rollback(
    conn: &mut AnyConnection,
    bet: &BetMoney,
    version: i64,
    paid: i64,
    boost_paid: i64,
) -> Result<(), LedgerError> {
    pay(conn, bet, version, -paid, -boost_paid, "sportsbook_rollback").await
}

/// Cancels the bet: the `stake` back to the `funds` balance it came from, and what it was `paid`
/// taken back from main, in one movement.
pub async fn cancel(
    conn: &mut AnyConnection,
    bet: &BetMoney,
    funds: PlayerAccount,
    stake: i64,
    paid: i64,
) -> Result<(), LedgerError> {
    let key = format!("{}:cancel", bet.prefix);
    let postings = if funds == PlayerAccount::Main {
        vec![
            Posting { account: HOUSE, amount: paid - stake },
            Posting { account: bet.player(PlayerAccount::Main), amount: stake - paid },
        ]
    } else {
        vec![
            Posting { account: HOUSE, amount: paid - stake },
            Posting { account: bet.player(funds), amount: stake },
            Posting { account: bet.player(PlayerAccount::Main), amount: -paid },
        ]
    };
    bet.post(conn, &key, "sportsbook_cancel", postings).await
}
