//! The cashier (SPEC §2 routes, §3 entities, §7 calls, §8 billing and withdrawal errors):
//! deposit and withdrawal settings, deposits through a payment provider, withdrawals held in the
//! ledger until an operator approves them, history, deposit limits, banks and reference rates.

pub mod deposits;
pub mod withdrawals;

use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, Registry};
use crate::features::account::{MoneyView, player_currency};
use crate::payments::MethodInfo;
use croupier_shared::{Currency, FieldCode, Locale, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub fn register(api: &mut Registry) {
    api.read(
        "cashier.getdepositsettings",
        "Deposit methods with their bounds, amount presets and limits.",
        deposit_settings,
    );
    api.read("cashier.gethistory", "Deposits or withdrawals, newest first.", history);
    api.read("cashier.getbanks", "Banks for the bank-transfer method.", banks);
    deposits::register(api);
    withdrawals::register(api);
}

/// Quick-pick deposit amounts in major units (SPEC §3 "Deposit amount presets").
const PRESETS: [i64; 5] = [20, 50, 100, 200, 500];

#[derive(Debug, Serialize, JsonSchema)]
pub struct MethodView {
    pub sysname: &'static str,
    pub name: &'static str,
    pub min: MoneyView,
    pub max: MoneyView,
    /// Fields the player fills in for this method.
    pub requisites: Vec<&'static str>,
}

pub fn method_view(m: &MethodInfo, currency: Currency, locale: Locale) -> MethodView {
    MethodView {
        sysname: m.sysname,
        name: if locale == Locale::Fr { m.name_fr } else { m.name_en },
        min: Money::from_major(m.min_major, currency).into(),
        max: Money::from_major(m.max_major, currency).into(),
        requisites: m.requisites.to_vec(),
    }
}

/// The fields deposits and withdrawals share: a method, an amount and the method's requisites.
pub fn check_request(method: &str, amount: &str, requisites: &str, errors: &mut FieldErrors) {
    if method.is_empty() {
        errors.add("method", FieldCode::Required);
    }
    if amount.is_empty() {
        errors.add("amount", FieldCode::Required);
    }
    if requisites.chars().count() > 2000 {
        errors.add_with("requisites", FieldCode::MaxLength, vec![("max", "2000".into())]);
    }
}

/// [`parse_amount`]'s shape for the OpenAPI document: a positive whole number of major units
/// without a leading zero, surrounding whitespace ignored; at most 16 digits, so that it fits the
/// ledger's minor units (the method's bounds, which refuse far less, are configured, not stated).
pub const WHOLE_AMOUNT: &str = r"^\s*[1-9][0-9]{0,15}\s*$";

/// The SPEC §5 `sum` rule with the method's bounds: a positive whole number of major units.
pub fn parse_amount(text: &str, m: &MethodInfo, currency: Currency) -> Result<Money, ApiError> {
    let mut errors = FieldErrors::default();
    let bounds = |code| {
        vec![
            ("min", format!("{} {currency}", m.min_major)),
            ("max", format!("{} {currency}", m.max_major)),
            ("code", String::from(code)),
        ]
    };
    match Money::parse_whole_major(text.trim(), currency) {
        None => errors.add_with("amount", FieldCode::Invalid, bounds("sum")),
        Some(amount) if amount.minor() < Money::from_major(m.min_major, currency).minor() => {
            errors.add_with("amount", FieldCode::MinValue, bounds("min"))
        }
        Some(amount) if amount.minor() > Money::from_major(m.max_major, currency).minor() => {
            errors.add_with("amount", FieldCode::MaxValue, bounds("max"))
        }
        Some(amount) => return Ok(amount),
    }
    errors.into_result().map(|()| Money::zero(currency))
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PresetAmount {
    pub value: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Preset {
    pub currency: String,
    pub amount: Vec<PresetAmount>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DepositSettings {
    pub currency: String,
    pub methods: Vec<MethodView>,
    pub amount_presets: Vec<Preset>,
    pub limits: Vec<crate::features::account::limits::DepositLimit>,
}

async fn deposit_settings(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<DepositSettings, ApiError> {
    let (user_id, currency) = player_currency(&ctx, &user).await?;
    let methods = ctx
        .state
        .payments()
        .all()
        .flat_map(|p| p.methods())
        .filter(|m| m.deposit)
        .map(|m| method_view(m, currency, ctx.locale))
        .collect();
    let amount_presets = ctx
        .state
        .config()
        .currencies
        .iter()
        .map(|c| Preset {
            currency: c.code().to_owned(),
            amount: PRESETS.iter().map(|v| PresetAmount { value: *v }).collect(),
        })
        .collect();
    let limits = crate::features::account::limits::current(
        &ctx.state,
        user_id,
        currency,
        crate::features::account::limits::Kind::Deposit,
    )
    .await?;
    Ok(DepositSettings { currency: currency.code().to_owned(), methods, amount_presets, limits })
}

/// SPEC §3 "Deposit info" (withdrawals share the shape).
#[derive(Debug, Serialize, JsonSchema, Clone)]
pub struct PaymentInfo {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub method: String,
    pub amount: MoneyView,
    pub status: String,
    pub requisites: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
    pub updated_at: i64,
    pub domain: Option<String>,
}

#[derive(sqlx::FromRow)]
pub struct PaymentRow {
    pub id: String,
    pub user_id: i64,
    pub direction: String,
    pub method: String,
    pub provider: String,
    pub amount: i64,
    pub currency: String,
    pub status: String,
    pub requisites: Option<String>,
    pub domain: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl PaymentRow {
    /// The payment's amount as money (a row's currency was valid when it was written).
    pub fn money(&self) -> Result<Money, ApiError> {
        let currency = Currency::parse(&self.currency)
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("payment {} has no valid currency", self.id)))?;
        Ok(Money::from_minor(self.amount, currency))
    }
}

pub const PAYMENT_COLUMNS: &str =
    "id, user_id, direction, method, provider, amount, currency, status, requisites, domain, created_at, updated_at";

impl PaymentRow {
    pub fn info(&self) -> PaymentInfo {
        let money = Currency::parse(&self.currency)
            .map_or(MoneyView { amount: self.amount.to_string(), currency: self.currency.clone() }, |c| {
                Money::from_minor(self.amount, c).into()
            });
        PaymentInfo {
            id: self.id.clone(),
            kind: self.direction.clone(),
            method: self.method.clone(),
            amount: money,
            status: self.status.clone(),
            requisites: self.requisites.clone(),
            created_at: self.created_at / 1000,
            updated_at: self.updated_at / 1000,
            domain: self.domain.clone(),
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct HistoryQuery {
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// Page size: 4 by default (SPEC §9), at most 100.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
    /// deposit, withdrawal or bonuses.
    #[serde(default, rename = "type")]
    #[schemars(extend("enum" = ["deposit", "withdrawal", "bonuses"]))]
    pub kind: String,
    /// Comma-separated statuses to keep.
    #[serde(default)]
    pub statuses: String,
}

impl Input for HistoryQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if !matches!(self.kind.as_str(), "" | "deposit" | "withdrawal" | "bonuses") {
            errors.add("type", FieldCode::Unsupported);
        }
        if self.offset.is_some_and(|o| o < 0) {
            errors.add_with("offset", FieldCode::MinValue, vec![("min", "0".into())]);
        }
        if self.count.is_some_and(|c| !(1..=100).contains(&c)) {
            errors.add_with("count", FieldCode::MaxValue, vec![("max", "100".into())]);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct History {
    pub total: i64,
    pub items: Vec<HistoryItem>,
}

/// A payment (the deposit and withdrawal tabs) or a bonus (the bonuses tab).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum HistoryItem {
    Payment(PaymentInfo),
    Bonus(Box<crate::features::bonuses::methods::Bonus>),
}

async fn history(ctx: Ctx, user: AuthUser, query: HistoryQuery) -> Result<History, ApiError> {
    let user_id = user.id;
    let kind = if query.kind.is_empty() { "deposit" } else { query.kind.as_str() };
    if kind == "bonuses" {
        // Every bonus the player has had, newest first (the statuses filter applies too).
        let all = crate::features::bonuses::methods::STATUSES;
        let asked: Vec<&str> = query.statuses.split(',').map(str::trim).filter(|s| all.contains(s)).collect();
        let statuses = if asked.is_empty() { all.to_vec() } else { asked };
        let page = crate::features::bonuses::methods::list(
            &ctx,
            user_id,
            &statuses,
            query.offset.unwrap_or(0),
            query.count.unwrap_or(4),
        )
        .await?;
        return Ok(History {
            total: page.total,
            items: page.items.into_iter().map(|b| HistoryItem::Bonus(Box::new(b))).collect(),
        });
    }
    let statuses: Vec<&str> = query.statuses.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    // Statuses are matched against a joined list so the statement stays one text for any count.
    let status_list = format!(",{},", statuses.join(","));
    let filter = "user_id = $1 AND direction = $2 AND ($3 = ',,' OR $3 LIKE '%,' || status || ',%')";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM payments WHERE {filter}")))
        .bind(user_id)
        .bind(kind)
        .bind(&status_list)
        .fetch_one(ctx.state.db().pool())
        .await?;
    let rows: Vec<PaymentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PAYMENT_COLUMNS} FROM payments WHERE {filter} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5"
    )))
    .bind(user_id)
    .bind(kind)
    .bind(&status_list)
    .bind(query.count.unwrap_or(4))
    .bind(query.offset.unwrap_or(0))
    .fetch_all(ctx.state.db().pool())
    .await?;
    Ok(History { total, items: rows.iter().map(|r| HistoryItem::Payment(r.info())).collect() })
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Bank {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct BanksQuery {
    /// Only the banks of this method's provider (default: every method with a `bank` requisite).
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub method: Option<String>,
    /// ISO 4217 code; default: the signed-in player's currency, else any.
    #[serde(default)]
    pub currency: Option<String>,
    /// ISO 3166-1 alpha-2 code; default: the signed-in player's country, else any.
    #[serde(default)]
    #[schemars(pattern(r"^[A-Za-z]{2}$"))]
    pub country: Option<String>,
}

impl Input for BanksQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.currency.as_deref().is_some_and(|c| Currency::parse(c).is_none()) {
            errors.add("currency", FieldCode::Unsupported);
        }
        if self.country.as_deref().is_some_and(|c| c.len() != 2 || !c.bytes().all(|b| b.is_ascii_alphabetic())) {
            errors.add("country", FieldCode::Invalid);
        }
        if self.method.as_deref().is_some_and(|m| m.is_empty() || m.len() > 64) {
            errors.add("method", FieldCode::Invalid);
        }
    }
}

/// The providers whose methods take a `bank` requisite: `method`'s only, when given.
fn bank_providers<'a>(
    payments: &'a crate::payments::Payments,
    method: Option<&str>,
) -> Result<Vec<&'a dyn crate::payments::PaymentProvider>, ApiError> {
    let takes_bank = |m: &MethodInfo| m.requisites.contains(&"bank");
    match method {
        Some(sysname) => match payments.method(sysname) {
            Some((provider, m)) if takes_bank(m) => Ok(vec![provider]),
            _ => Err(ApiError::field("method", FieldCode::Unsupported)),
        },
        None => Ok(payments.all().filter(|p| p.methods().iter().any(takes_bank)).collect()),
    }
}

/// `cashier.getbanks`: the payment providers' own lists, for a currency and a country.
async fn banks(ctx: Ctx, user: crate::api::MaybeUser, query: BanksQuery) -> Result<Vec<Bank>, ApiError> {
    let player = match user.0 {
        Some(user) => Some(crate::features::account::store::load(ctx.state.db(), user.id).await?),
        None => None,
    };
    let currency = query.currency.or_else(|| player.as_ref().and_then(|p| p.currency.clone()));
    let country = query.country.or_else(|| player.as_ref().and_then(|p| p.country_code.clone()));
    let mut seen = std::collections::HashSet::new();
    let mut list = Vec::new();
    for provider in bank_providers(ctx.state.payments(), query.method.as_deref())? {
        for bank in provider.banks() {
            if bank.serves(currency.as_deref(), country.as_deref()) && seen.insert(bank.id.clone()) {
                list.push(Bank { id: bank.id.clone(), name: bank.name.clone() });
            }
        }
    }
    Ok(list)
}

/// A `bank` requisite must name one of the method's provider's banks for the player's currency
/// (the requisites are `field=value` lines).
pub fn check_bank(
    provider: &dyn crate::payments::PaymentProvider,
    m: &MethodInfo,
    requisites: &str,
    currency: Currency,
) -> Result<(), ApiError> {
    if !m.requisites.contains(&"bank") {
        return Ok(());
    }
    let chosen = requisites.lines().find_map(|line| line.trim().strip_prefix("bank=")).map(str::trim);
    match chosen {
        None | Some("") => Err(ApiError::field("requisites", FieldCode::Required).with_data("requisite", "bank")),
        Some(id) if provider.banks().iter().any(|b| b.id == id && b.serves(Some(currency.code()), None)) => Ok(()),
        Some(_) => Err(ApiError::field("requisites", FieldCode::Unsupported).with_data("requisite", "bank")),
    }
}
