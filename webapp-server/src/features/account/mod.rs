//! The player's account: `account.getInfo` here; profile, contacts and settings in their files.

pub mod codes;
pub mod contacts;
pub mod limits;
pub mod profile;
pub mod rules;
pub mod settings;
pub mod store;
pub mod telegram;

use crate::api::{ApiError, AuthUser, Ctx, NoInput, Registry, Serialised};
use croupier_shared::{Currency, ErrorType, Money};
use schemars::JsonSchema;
use serde::Serialize;

pub fn register(api: &mut Registry) {
    api.read("account.getInfo", "The signed-in player's account (uid 0 for a guest).", get_info);
    api.read("account.getBalance", "The player's balances.", get_balance);
    api.read(
        "account.getcurrencyrates",
        "Reference rates against the default currency (display only).",
        currency_rates,
    );
    limits::register(api);
    profile::register(api);
    contacts::register(api);
    settings::register(api);
    telegram::register(api);
}

/// Money on the wire: a decimal string in major units and the currency.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MoneyView {
    pub amount: String,
    pub currency: String,
}

impl MoneyView {
    /// `minor` units of the currency coded `currency` (a code the database stored); an unknown
    /// code shows the bare minor units.
    pub fn of(minor: i64, currency: &str) -> MoneyView {
        match croupier_shared::Currency::parse(currency) {
            Some(c) => Money::from_minor(minor, c).into(),
            None => MoneyView { amount: minor.to_string(), currency: currency.to_owned() },
        }
    }
}

impl From<Money> for MoneyView {
    fn from(m: Money) -> MoneyView {
        MoneyView { amount: m.to_decimal_string(), currency: m.currency().code().to_owned() }
    }
}

/// SPEC §3 "Account info".
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AccountInfo {
    /// 0 for a guest.
    pub uid: i64,
    pub id: i64,
    /// Registration time, unix seconds (0 for a guest).
    pub reg_time: i64,
    /// The login contact: an e-mail, or phone digits.
    pub login: String,
    pub fakename: Option<String>,
    /// Whether the login contact receives marketing messages.
    pub is_subscribed: bool,
    /// `null` until chosen (social sign-ups choose it to complete registration).
    pub currency: Option<String>,
    pub balance_main: MoneyView,
    pub balance_bonus: MoneyView,
    pub balance_betting_bonus: MoneyView,
    pub balance_fun: MoneyView,
    pub is_on_verification: bool,
    pub is_verified: bool,
    pub is_kyc_block_enabled: bool,
    pub is_registration_completed: bool,
    pub country_code: Option<String>,
    pub locale: String,
    pub two_factor_auth: bool,
    /// The time-out or self-exclusion in force (the site shows what applies); `null` if none.
    pub exclusion: Option<crate::features::protection::Exclusion>,
    /// Identity verification: none, pending, verified, retry or rejected.
    pub kyc_status: String,
}

/// `account.getInfo`. A signed-in player's answer is served already serialised from the hot
/// cache ([`Summary`]): a repeat call clones no strings and serialises nothing (issue 23).
async fn get_info(ctx: Ctx, _: NoInput) -> Result<Serialised<AccountInfo>, ApiError> {
    match ctx.session.as_ref().map(|s| s.user_id) {
        Some(user_id) => Ok(summary(&ctx, user_id).await?.json.clone()),
        None => Serialised::new(&account_info(&ctx, None).await?),
    }
}

/// A player's account info as kept in this replica's memory ([`crate::hot`]) until anything about
/// the player changes (balances, their row, contacts, sessions): one entry holding the answer
/// and its serialised form, made together, so the two cannot disagree.
pub struct Summary {
    pub info: AccountInfo,
    pub json: Serialised<AccountInfo>,
}

/// The player's [`Summary`], from the hot cache or read.
async fn summary(ctx: &Ctx, user_id: i64) -> Result<std::sync::Arc<Summary>, ApiError> {
    if let Some(summary) = ctx.state.hot().value::<Summary>(user_id) {
        return Ok(summary);
    }
    // Taken before the read, as for any entry: a touch after it outdates what is kept.
    let stamp = crate::hot::stamp();
    let info = read_account_info(ctx, user_id).await?;
    let json = Serialised::new(&info)?;
    let summary = std::sync::Arc::new(Summary { info, json });
    ctx.state.hot().put_value(user_id, std::sync::Arc::clone(&summary), stamp);
    Ok(summary)
}

/// The account-info answer for `user_id`, or the guest's.
pub async fn account_info(ctx: &Ctx, user_id: Option<i64>) -> Result<AccountInfo, ApiError> {
    let config = ctx.state.config();
    let Some(user_id) = user_id else {
        let zero = MoneyView::from(Money::zero(config.default_currency));
        return Ok(AccountInfo {
            uid: 0,
            id: 0,
            reg_time: 0,
            login: String::new(),
            fakename: None,
            is_subscribed: false,
            currency: None,
            balance_main: zero.clone(),
            balance_bonus: zero.clone(),
            balance_betting_bonus: zero.clone(),
            balance_fun: zero,
            is_on_verification: false,
            is_verified: false,
            is_kyc_block_enabled: false,
            is_registration_completed: false,
            country_code: None,
            locale: ctx.locale.code().to_owned(),
            two_factor_auth: false,
            exclusion: None,
            kyc_status: "none".to_owned(),
        });
    };
    Ok(summary(ctx, user_id).await?.info.clone())
}

/// The signed-in player's account info as the database has it.
async fn read_account_info(ctx: &Ctx, user_id: i64) -> Result<AccountInfo, ApiError> {
    let config = ctx.state.config();
    let db = ctx.state.db();
    let user = store::load(db, user_id).await?;
    let contacts = store::contacts(db, user_id).await?;
    let login = contacts.iter().find(|c| c.is_login != 0);
    let currency = user.currency.as_deref().and_then(Currency::parse).unwrap_or(config.default_currency);
    let [main, bonus, betting_bonus, fun] = crate::ledger::player_balances(db, user_id, currency).await?;
    let money = |minor| MoneyView::from(Money::from_minor(minor, currency));
    Ok(AccountInfo {
        uid: user.id,
        id: user.id,
        reg_time: user.reg_time / 1000,
        login: login.map(|c| c.contact.clone()).unwrap_or_default(),
        fakename: user.fakename,
        is_subscribed: login.is_some_and(|c| c.is_subscribed != 0),
        currency: user.currency,
        balance_main: money(main),
        balance_bonus: money(bonus),
        balance_betting_bonus: money(betting_bonus),
        balance_fun: money(fun),
        is_on_verification: user.is_on_verification != 0,
        is_verified: user.is_verified != 0,
        is_kyc_block_enabled: user.is_kyc_block_enabled != 0,
        is_registration_completed: user.is_registration_completed != 0,
        country_code: user.country_code,
        locale: user.locale,
        two_factor_auth: user.two_factor_auth != 0,
        exclusion: crate::features::protection::Exclusion::in_force(
            user.blocked_until,
            user.blocked_kind.as_deref(),
            crate::db::now_ms(),
        ),
        kyc_status: user.kyc_status,
    })
}

/// The signed-in player's id and account currency; a player who has not chosen one yet (a social
/// sign-up) must complete registration first.
pub async fn player_currency(ctx: &Ctx, user: &AuthUser) -> Result<(i64, Currency), ApiError> {
    let (_, currency) = player_row(ctx, user).await?;
    Ok((user.id, currency))
}

/// [`player_currency`] with the player's whole row, for callers that read more of it.
pub async fn player_row(ctx: &Ctx, user: &AuthUser) -> Result<(store::UserRow, Currency), ApiError> {
    let row = store::load(ctx.state.db(), user.id).await?;
    let currency = row.currency.as_deref().and_then(Currency::parse).ok_or_else(|| {
        ApiError::new(ErrorType::UserNeedProfileDataException).with_data("missing", serde_json::json!(["currency"]))
    })?;
    Ok((row, currency))
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Balance {
    pub balance_main: MoneyView,
    pub balance_bonus: MoneyView,
    pub balance_betting_bonus: MoneyView,
    pub balance_fun: MoneyView,
}

async fn get_balance(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<Balance, ApiError> {
    let info = account_info(&ctx, Some(user.id)).await?;
    Ok(Balance {
        balance_main: info.balance_main,
        balance_bonus: info.balance_bonus,
        balance_betting_bonus: info.balance_betting_bonus,
        balance_fun: info.balance_fun,
    })
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Rate {
    pub currency: String,
    /// Units of `currency` for one unit of the base currency, as a decimal string.
    pub rate: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Rates {
    pub base: String,
    pub rates: Vec<Rate>,
}

async fn currency_rates(ctx: Ctx, _: NoInput) -> Result<Rates, ApiError> {
    let config = ctx.state.config();
    Ok(Rates {
        base: config.default_currency.code().to_owned(),
        rates: config.currency_rates.iter().map(|(c, r)| Rate { currency: c.clone(), rate: r.clone() }).collect(),
    })
}
