//! The player's calls: `bonuses.*` and `campaigns.*` (SPEC §7).

use super::Rules;
use super::campaigns::{self, Amounts, CampaignRow, CodeRefusal, Refusal};
use super::engine::{self, Actor, BonusError, BonusRow};
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, MaybeUser, Registry};
use crate::db::{group::job, now_ms};
use croupier_shared::{Currency, ErrorType, FieldCode, Locale, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;
use std::sync::Arc;
use std::time::Duration;

pub fn register(api: &mut Registry, content: &Arc<crate::features::content::Cache>) {
    api.read("bonuses.get", "The player's bonuses (statuses, offset, count).", get);
    api.write("bonuses.activate", "Activates an offered bonus (bonus_id).", activate);
    api.write("bonuses.deactivate", "Puts a bonus waiting for its deposit back to offered (bonus_id).", deactivate);
    api.write("bonuses.remove", "Declines or forfeits a bonus (bonus_id).", remove);
    api.read("campaigns.getoffers", "The offers the caller can see (offset, fields, trigger).", offers);
    api.write("campaigns.checkPromocode", "Checks a promo code without using it (promo_code).", check_promocode);
    api.write("campaigns.activateOffer", "Applies a promo code (promo_code, fields).", activate_offer);
    api.write("campaigns.takepromotions", "Takes an offer (offer_id).", take_offer);
    super::betting::register(api);
    super::content::register(api, content);
}

// ---------------------------------------------------------------------------------------------
// Views.

/// SPEC §7 `bonuses.get` item (times in Unix seconds, amounts decimal in the bonus's currency).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Bonus {
    pub id: i64,
    /// offered, active, wagering, completed, expired, forfeited or cancelled.
    pub status: String,
    pub campaign_id: Option<i64>,
    pub title: String,
    pub description: String,
    pub currency: String,
    pub amount: String,
    pub balance: String,
    pub wager_target: String,
    pub wagered: String,
    /// Wagering done, 0 to 100.
    pub progress: i64,
    pub max_bet: Option<String>,
    pub max_conversion: Option<String>,
    pub games: Vec<String>,
    pub freespins: Option<BonusSpins>,
    pub awaiting_deposit: bool,
    pub min_deposit: Option<String>,
    pub expires_at: Option<i64>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub can_activate: bool,
    pub can_deactivate: bool,
    pub can_remove: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct BonusSpins {
    pub game: String,
    pub remaining_count: i64,
    pub total_count: i64,
    pub bet: String,
}

fn decimal(minor: i64, currency: &str) -> String {
    Currency::parse(currency).map_or_else(|| minor.to_string(), |c| Money::from_minor(minor, c).to_decimal_string())
}

/// The view of a bonus; `pack` is its free-spin pack's (remaining, total).
pub fn bonus_view(b: &BonusRow, locale: Locale, pack: Option<(i64, i64)>) -> Bonus {
    let fr = locale == Locale::Fr;
    let progress = if b.wager_target <= 0 {
        if b.status == "completed" || b.status == "wagering" { 100 } else { 0 }
    } else {
        i64::try_from((i128::from(b.wagered) * 100 / i128::from(b.wager_target)).clamp(0, 100)).unwrap_or(0)
    };
    let money = |m: i64| decimal(m, &b.currency);
    Bonus {
        id: b.id,
        status: b.status.clone(),
        campaign_id: b.campaign_id,
        title: if fr { b.title_fr.clone() } else { b.title_en.clone() },
        description: if fr { b.text_fr.clone() } else { b.text_en.clone() },
        currency: b.currency.clone(),
        amount: money(b.amount),
        balance: money(b.balance),
        wager_target: money(b.wager_target),
        wagered: money(b.wagered.min(b.wager_target.max(b.wagered))),
        progress,
        max_bet: Some(b.max_bet).filter(|m| *m > 0).map(money),
        max_conversion: b.max_conversion.map(money),
        games: b.games.split(',').filter(|g| !g.is_empty()).map(str::to_owned).collect(),
        freespins: b.freespin_game.as_ref().filter(|_| b.freespin_count > 0).map(|game| BonusSpins {
            game: game.clone(),
            remaining_count: pack.map_or(if b.status == "wagering" { 0 } else { b.freespin_count }, |p| p.0),
            total_count: pack.map_or(b.freespin_count, |p| p.1),
            bet: money(b.freespin_bet),
        }),
        awaiting_deposit: b.awaiting_deposit == 1 && matches!(b.status.as_str(), "offered" | "active"),
        min_deposit: Some(b.min_deposit).filter(|m| *m > 0).map(money),
        expires_at: b
            .expires_at
            .filter(|_| matches!(b.status.as_str(), "offered" | "active" | "wagering"))
            .map(|t| t / 1000),
        created_at: b.created_at / 1000,
        finished_at: b.finished_at.map(|t| t / 1000),
        can_activate: b.status == "offered",
        can_deactivate: b.status == "active",
        can_remove: matches!(b.status.as_str(), "offered" | "active" | "wagering"),
    }
}

async fn pack_of(conn: &mut AnyConnection, b: &BonusRow) -> Result<Option<(i64, i64)>, sqlx::Error> {
    match b.freespin_pack_id {
        Some(id) => {
            sqlx::query_as("SELECT remaining_count, total_count FROM freespin_packs WHERE id = $1")
                .bind(id)
                .fetch_optional(conn)
                .await
        }
        None => Ok(None),
    }
}

async fn view(conn: &mut AnyConnection, b: &BonusRow, locale: Locale) -> Result<Bonus, sqlx::Error> {
    let pack = pack_of(conn, b).await?;
    Ok(bonus_view(b, locale, pack))
}

/// SPEC §3 Offer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Offer {
    pub id: i64,
    pub sysname: String,
    pub trigger: Trigger,
    pub description: OfferDescription,
    pub promotions: Vec<String>,
    pub reward: Reward,
    pub starts_at: Option<i64>,
    pub ends_at: Option<i64>,
    pub taken: bool,
    pub bonus_id: Option<i64>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Trigger {
    /// registration, deposit, promo_code or manual.
    pub action: String,
    pub params: TriggerParams,
    pub user_satisfies_params: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct TriggerParams {
    pub exclude_methods: Vec<String>,
    pub min_deposit: Option<String>,
    pub deposit_number: Option<i64>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct OfferDescription {
    pub title: String,
    pub text: String,
    /// The reward in a few words, in the caller's language.
    pub reward: String,
    pub terms: String,
    pub image: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Reward {
    /// deposit_match, fixed, freespins, freebet or odds_boost.
    pub kind: String,
    pub percent: Option<i64>,
    pub max_amount: Option<String>,
    pub amount: Option<String>,
    pub freespins: Option<RewardSpins>,
    pub wager_multiplier: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RewardSpins {
    pub game: String,
    pub count: i64,
}

/// The reward in words: "100% up to 500.00 USD + 50 free spins".
fn reward_words(c: &CampaignRow, a: Option<&Amounts>, locale: Locale) -> String {
    let fr = locale == Locale::Fr;
    let money = |m: i64| a.map(|a| format!("{} {}", decimal(m, &a.currency), a.currency));
    let mut parts = Vec::new();
    match c.reward.as_str() {
        "deposit_match" => parts.push(match a.and_then(|a| money(a.max_bonus)) {
            Some(max) if fr => format!("{} % jusqu'à {max}", c.match_percent),
            Some(max) => format!("{}% up to {max}", c.match_percent),
            None if fr => format!("{} % de votre dépôt", c.match_percent),
            None => format!("{}% of your deposit", c.match_percent),
        }),
        "fixed" => parts.extend(
            a.and_then(|a| money(a.max_bonus)).map(|m| if fr { format!("{m} de bonus") } else { format!("{m} bonus") }),
        ),
        "freebet" => parts.push(match a.and_then(|a| money(a.max_bonus)) {
            Some(m) if fr => format!("un pari gratuit de {m}"),
            Some(m) => format!("a {m} free bet"),
            None if fr => "un pari gratuit".to_owned(),
            None => "a free bet".to_owned(),
        }),
        "odds_boost" => parts.push(match a.and_then(|a| money(a.max_bonus)) {
            Some(m) if fr => format!("une cote boostée de {} % (gain en plus jusqu'à {m})", c.match_percent),
            Some(m) => format!("a {}% odds boost (extra winnings up to {m})", c.match_percent),
            None if fr => format!("une cote boostée de {} %", c.match_percent),
            None => format!("a {}% odds boost", c.match_percent),
        }),
        _ => {}
    }
    if c.freespin_count > 0 {
        parts.push(if fr {
            format!("{} tours gratuits", c.freespin_count)
        } else {
            format!("{} free spins", c.freespin_count)
        });
    }
    parts.join(" + ")
}

fn offer_view(c: &CampaignRow, a: Option<&Amounts>, locale: Locale, satisfies: bool, bonus_id: Option<i64>) -> Offer {
    let fr = locale == Locale::Fr;
    let money = |m: i64| a.map(|a| decimal(m, &a.currency));
    Offer {
        id: c.id,
        sysname: c.sysname.clone(),
        trigger: Trigger {
            action: c.trigger_action.clone(),
            params: TriggerParams {
                exclude_methods: c.exclude_list(),
                min_deposit: a.filter(|a| a.min_deposit > 0).and_then(|a| money(a.min_deposit)),
                deposit_number: c.deposit_number,
            },
            user_satisfies_params: satisfies,
        },
        description: OfferDescription {
            title: if fr { c.title_fr.clone() } else { c.title_en.clone() },
            text: if fr { c.text_fr.clone() } else { c.text_en.clone() },
            reward: reward_words(c, a, locale),
            terms: if fr { c.terms_fr.clone() } else { c.terms_en.clone() },
            image: c.image_url.clone(),
        },
        promotions: c.promotions.split(',').map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned).collect(),
        reward: Reward {
            kind: c.reward.clone(),
            percent: Some(c.match_percent).filter(|_| matches!(c.reward.as_str(), "deposit_match" | "odds_boost")),
            max_amount: a
                .filter(|_| matches!(c.reward.as_str(), "deposit_match" | "odds_boost"))
                .and_then(|a| money(a.max_bonus)),
            amount: a.filter(|_| matches!(c.reward.as_str(), "fixed" | "freebet")).and_then(|a| money(a.max_bonus)),
            freespins: c
                .freespin_game
                .as_ref()
                .filter(|_| c.freespin_count > 0)
                .map(|g| RewardSpins { game: g.clone(), count: c.freespin_count }),
            wager_multiplier: c.wager_multiplier,
        },
        starts_at: c.starts_at.map(|t| t / 1000),
        ends_at: c.ends_at.map(|t| t / 1000),
        taken: bonus_id.is_some(),
        bonus_id,
    }
}

// ---------------------------------------------------------------------------------------------
// bonuses.*

/// `used` is a betting bonus's (see [`super::betting`]).
pub const STATUSES: [&str; 8] =
    ["offered", "active", "wagering", "completed", "expired", "forfeited", "cancelled", "used"];

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BonusesQuery {
    /// Comma-separated statuses; default offered,active,wagering.
    #[serde(default)]
    pub statuses: Option<String>,
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 50).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
}

impl BonusesQuery {
    fn statuses(&self) -> Vec<&str> {
        status_list(self.statuses.as_deref(), &["offered", "active", "wagering"])
    }
}

impl Input for BonusesQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.statuses().iter().any(|s| !STATUSES.contains(s)) {
            errors.add("statuses", FieldCode::Unsupported);
        }
        page_checks(self.offset, self.count, errors);
    }
}

/// The comma-separated `given` statuses, or `default` when none are given.
pub(crate) fn status_list<'a>(given: Option<&'a str>, default: &[&'a str]) -> Vec<&'a str> {
    match given.map(str::trim).filter(|s| !s.is_empty()) {
        None => default.to_vec(),
        Some(list) => list.split(',').map(str::trim).filter(|s| !s.is_empty()).collect(),
    }
}

/// `offset` 0 or more, `count` 1 to 100.
pub(crate) fn page_checks(offset: Option<i64>, count: Option<i64>, errors: &mut FieldErrors) {
    crate::features::winners::page_checks(offset, count, 100, errors);
}

/// A page of the player's bonuses of `statuses`, newest first, with their total; `only` is an
/// extra SQL condition of the caller's (a constant, e.g. the betting rewards).
pub(crate) async fn rows_page(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    statuses: &[&str],
    only: &'static str,
    offset: i64,
    count: i64,
) -> Result<(i64, Vec<BonusRow>), ApiError> {
    let list = format!(",{},", statuses.join(","));
    let filter = format!("user_id = $1 AND $2 LIKE '%,' || status || ',%'{only}");
    let total: i64 =
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM player_bonuses WHERE {filter}")))
            .bind(user_id)
            .bind(&list)
            .fetch_one(&mut *conn)
            .await?;
    let rows: Vec<BonusRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM player_bonuses WHERE {filter} ORDER BY id DESC LIMIT $3 OFFSET $4",
        engine::COLUMNS
    )))
    .bind(user_id)
    .bind(&list)
    .bind(count)
    .bind(offset)
    .fetch_all(&mut *conn)
    .await?;
    Ok((total, rows))
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Bonuses {
    pub total: i64,
    pub items: Vec<Bonus>,
}

/// The player's bonuses of `statuses`, newest first (also `cashier.gethistory` `type=bonuses`).
pub async fn list(ctx: &Ctx, user_id: i64, statuses: &[&str], offset: i64, count: i64) -> Result<Bonuses, ApiError> {
    let mut conn = ctx.state.db().pool().acquire().await?;
    let (total, rows) = rows_page(&mut conn, user_id, statuses, "", offset, count).await?;
    let mut items = Vec::with_capacity(rows.len());
    for row in &rows {
        items.push(view(&mut conn, row, ctx.locale).await?);
    }
    Ok(Bonuses { total, items })
}

async fn get(ctx: Ctx, user: AuthUser, query: BonusesQuery) -> Result<Bonuses, ApiError> {
    let statuses = query.statuses();
    list(&ctx, user.id, &statuses, query.offset.unwrap_or(0), query.count.unwrap_or(50)).await
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BonusInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1))]
    pub bonus_id: Option<i64>,
}

impl Input for BonusInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.bonus_id {
            None => errors.add("bonus_id", FieldCode::Required),
            Some(id) if id < 1 => errors.add("bonus_id", FieldCode::Invalid),
            Some(_) => {}
        }
    }
}

/// The API's answer to a bonus refusal.
pub fn refusal(e: BonusError) -> ApiError {
    match e {
        BonusError::NotFound => ApiError::field("bonus_id", FieldCode::NotFound),
        BonusError::WrongState => ApiError::field("bonus_id", FieldCode::Invalid),
        BonusError::ActiveLimit(max) => ApiError::new(ErrorType::BonusActiveLimitException).with_data("max", max),
        BonusError::MaxBet(max) => ApiError::new(ErrorType::BonusMaxBetExceededException).with_data("max_bet", max),
        BonusError::Db(e) => ApiError::from(e),
        other => ApiError::internal(anyhow::anyhow!(other)),
    }
}

/// Runs a change of the player's bonuses on their lane of the group committer (one transaction,
/// re-runnable), with the player's row locked.
async fn on_lane<T, F>(ctx: &Ctx, user_id: i64, change: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: for<'c> Fn(&'c mut AnyConnection) -> futures::future::BoxFuture<'c, Result<T, ApiError>> + Send + Sync + 'static,
{
    ctx.state.db().group(user_id, job(change)).await
}

async fn change_bonus(
    ctx: Ctx,
    user: AuthUser,
    input: BonusInput,
    action: fn(&Rules) -> Action,
) -> Result<Bonus, ApiError> {
    let (user_id, bonus_id, rules, locale) = (user.id, input.bonus_id.unwrap_or(0), Rules::of(&ctx.state), ctx.locale);
    let db = ctx.state.db().clone();
    on_lane(&ctx, user_id, move |conn| {
        let db = db.clone();
        Box::pin(async move {
            db.lock_user(conn, user_id).await?;
            let bonus = engine::load_own(conn, user_id, bonus_id).await.map_err(refusal)?;
            match action(&rules) {
                // A betting bonus follows its own states, whichever call changes it.
                Action::Activate if super::betting::is_betting(&bonus.reward) => {
                    super::betting::activate(conn, &bonus).await.map_err(refusal)?;
                }
                Action::Remove if super::betting::is_betting(&bonus.reward) => {
                    super::betting::remove(conn, &bonus).await.map_err(refusal)?;
                }
                Action::Deactivate if super::betting::is_betting(&bonus.reward) => {
                    return Err(refusal(BonusError::WrongState));
                }
                Action::Activate => activate_in(conn, &rules, &bonus).await.map_err(refusal)?,
                Action::Deactivate => {
                    if bonus.status != "active" {
                        return Err(refusal(BonusError::WrongState));
                    }
                    engine::transition(conn, &bonus, "offered", "deactivated by the player", Actor::Player, 0).await?;
                }
                Action::Remove => match bonus.status.as_str() {
                    "offered" | "active" => {
                        engine::forfeit(conn, &bonus, "cancelled", "declined by the player", Actor::Player)
                            .await
                            .map_err(refusal)?;
                    }
                    "wagering" => {
                        engine::forfeit(conn, &bonus, "forfeited", "removed by the player", Actor::Player)
                            .await
                            .map_err(refusal)?;
                    }
                    _ => return Err(refusal(BonusError::WrongState)),
                },
            }
            let bonus = engine::load_own(conn, user_id, bonus_id).await.map_err(refusal)?;
            Ok(view(conn, &bonus, locale).await?)
        })
    })
    .await
}

enum Action {
    Activate,
    Deactivate,
    Remove,
}

/// Activates an offered bonus: one that needs a deposit waits for it (or is credited with the
/// deposit it already remembers); any other is credited now.
async fn activate_in(conn: &mut AnyConnection, rules: &Rules, bonus: &BonusRow) -> Result<(), BonusError> {
    if bonus.status != "offered" {
        return Err(BonusError::WrongState);
    }
    if bonus.awaiting_deposit == 1 {
        if let Some(payment) = bonus.payment_id.clone() {
            engine::credit(
                conn,
                rules,
                bonus,
                Some((&payment, bonus.deposit_amount)),
                Actor::Player,
                "activated by the player",
            )
            .await?;
        } else {
            engine::transition(
                conn,
                bonus,
                "active",
                "activated by the player: waiting for a deposit",
                Actor::Player,
                0,
            )
            .await?;
        }
        return Ok(());
    }
    engine::credit(conn, rules, bonus, None, Actor::Player, "activated by the player").await?;
    Ok(())
}

async fn activate(ctx: Ctx, user: AuthUser, input: BonusInput) -> Result<Bonus, ApiError> {
    crate::features::protection::refuse_if_excluded(&ctx.state, user.id).await?;
    change_bonus(ctx, user, input, |_| Action::Activate).await
}

async fn deactivate(ctx: Ctx, user: AuthUser, input: BonusInput) -> Result<Bonus, ApiError> {
    change_bonus(ctx, user, input, |_| Action::Deactivate).await
}

async fn remove(ctx: Ctx, user: AuthUser, input: BonusInput) -> Result<Bonus, ApiError> {
    change_bonus(ctx, user, input, |_| Action::Remove).await
}

// ---------------------------------------------------------------------------------------------
// campaigns.*

#[derive(Debug, Deserialize, JsonSchema)]
pub struct OffersQuery {
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
    /// Accepted for the client's sake; every field is answered.
    #[serde(default)]
    pub fields: Option<String>,
    /// `deposit`: only the offers a deposit can take (the deposit page's list).
    #[serde(default)]
    #[schemars(extend("enum" = ["deposit", "registration", "promo_code"]))]
    pub trigger: Option<String>,
}

impl Input for OffersQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        page_checks(self.offset, self.count, errors);
        if !matches!(self.trigger.as_deref(), None | Some("" | "deposit" | "registration" | "promo_code")) {
            errors.add("trigger", FieldCode::Unsupported);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Offers {
    pub total: i64,
    pub items: Vec<Offer>,
}

/// The offers the caller sees: running registration and deposit campaigns that are not full, and
/// the promo-code campaigns the player has a bonus of. Guests see them in the default currency
/// with `user_satisfies_params` true (they would have to register to take them).
async fn offers(ctx: Ctx, user: MaybeUser, query: OffersQuery) -> Result<Offers, ApiError> {
    let db = ctx.state.db();
    let mut conn = db.pool().acquire().await?;
    let player = match user.0.as_ref() {
        Some(u) => campaigns::player(&mut conn, u.id).await?,
        None => None,
    };
    let currency = player
        .as_ref()
        .and_then(|p| p.currency.as_deref())
        .and_then(Currency::parse)
        .unwrap_or(ctx.state.config().default_currency);
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM campaigns WHERE status = 'active' ORDER BY id")
        .fetch_all(&mut *conn)
        .await?;
    let now = now_ms();
    let mut items = Vec::new();
    for id in ids {
        let Some(c) = campaigns::load(&mut conn, id).await? else { continue };
        let bonus_id: Option<i64> = match &player {
            Some(p) => {
                sqlx::query_scalar("SELECT id FROM player_bonuses WHERE claim_key = $1")
                    .bind(campaigns::claim_key(c.id, p.id))
                    .fetch_optional(&mut *conn)
                    .await?
            }
            None => None,
        };
        let visible = match c.trigger_action.as_str() {
            "registration" | "deposit" => c.is_running(now) && (bonus_id.is_some() || !c.is_full()),
            "promo_code" => bonus_id.is_some(),
            _ => false,
        };
        let wanted = match query.trigger.as_deref() {
            Some("deposit") => c.needs_deposit(),
            Some(t) if !t.is_empty() => c.trigger_action == t,
            _ => true,
        };
        if !visible || !wanted {
            continue;
        }
        let amounts = campaigns::amounts(&mut conn, c.id, currency).await?;
        if amounts.is_none() {
            continue;
        }
        let satisfies = match &player {
            None => true,
            Some(p) => match bonus_id {
                Some(b) => {
                    let status: Option<String> = sqlx::query_scalar("SELECT status FROM player_bonuses WHERE id = $1")
                        .bind(b)
                        .fetch_optional(&mut *conn)
                        .await?;
                    matches!(status.as_deref(), Some("offered" | "active"))
                }
                None => campaigns::eligibility(&mut conn, &c, p).await?.is_ok(),
            },
        };
        items.push(offer_view(&c, amounts.as_ref(), ctx.locale, satisfies, bonus_id));
    }
    let total = i64::try_from(items.len()).unwrap_or(0);
    let offset = usize::try_from(query.offset.unwrap_or(0)).unwrap_or(0);
    let count = usize::try_from(query.count.unwrap_or(50)).unwrap_or(50);
    Ok(Offers { total, items: items.into_iter().skip(offset).take(count).collect() })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PromoInput {
    /// Letters, digits, `-` and `_` (surrounding whitespace ignored), at most 64 characters.
    #[serde(default)]
    #[schemars(extend("x-required" = true), pattern(r"^\s*[A-Za-z0-9_-]+\s*$"), example = &"WEEKEND")]
    pub promo_code: String,
    #[serde(default)]
    pub fields: Option<String>,
}

/// The longest promo code.
pub const MAX_CODE: usize = 64;

impl Input for PromoInput {
    fn validate(&self, errors: &mut FieldErrors) {
        let code = self.promo_code.trim();
        if code.is_empty() {
            errors.add("promo_code", FieldCode::Required);
        } else if code.chars().count() > MAX_CODE {
            errors.add_with("promo_code", FieldCode::MaxLength, vec![("max", MAX_CODE.to_string())]);
        } else if !code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            errors.add("promo_code", FieldCode::NotFound);
        }
    }
}

/// Promo-code tries per player per 10 minutes, and per address.
pub const CODE_TRIES: u64 = 10;
pub const CODE_TRIES_PER_ADDRESS: u64 = 30;
const CODE_WINDOW: Duration = Duration::from_secs(600);

async fn limit_code_tries(ctx: &Ctx, user_id: i64) -> Result<(), ApiError> {
    ctx.limit_ip_and("promo", &format!("user:{user_id}"), CODE_WINDOW, CODE_TRIES_PER_ADDRESS, CODE_TRIES).await
}

/// Records a refused promo code in the refusals trail (the code tried is kept: promo codes are
/// marketing, not credentials, and the codes being tried are what an operator wants to see).
async fn audit_code<T>(ctx: &Ctx, user_id: i64, code: &str, result: Result<T, ApiError>) -> Result<T, ApiError> {
    if let Err(e) = &result
        && let Some(refused) = e.fields().iter().find(|f| f.field == "promo_code")
    {
        ctx.refused("promo_code", refused.code.code(), Some(code.trim()), Some(user_id)).await;
    }
    result
}

fn code_refusal(r: CodeRefusal) -> ApiError {
    ApiError::field(
        "promo_code",
        match r {
            CodeRefusal::NotFound => FieldCode::NotFound,
            CodeRefusal::Used => FieldCode::PromoUsed,
            CodeRefusal::Expired => FieldCode::PromoExpired,
            CodeRefusal::NotEligible => FieldCode::PromoNotEligible,
        },
    )
}

async fn player_of(conn: &mut AnyConnection, user_id: i64) -> Result<campaigns::Player, ApiError> {
    campaigns::player(conn, user_id).await?.ok_or_else(|| ApiError::new(ErrorType::AuthorizationException))
}

async fn check_promocode(ctx: Ctx, user: AuthUser, input: PromoInput) -> Result<Offer, ApiError> {
    crate::features::protection::refuse_if_excluded(&ctx.state, user.id).await?;
    limit_code_tries(&ctx, user.id).await?;
    let mut conn = ctx.state.db().pool().acquire().await?;
    let player = player_of(&mut conn, user.id).await?;
    let checked = match campaigns::check_code(&mut conn, &input.promo_code, &player).await? {
        Ok((campaign, amounts)) => Ok(offer_view(&campaign, Some(&amounts), ctx.locale, true, None)),
        Err(r) => Err(code_refusal(r)),
    };
    audit_code(&ctx, user.id, &input.promo_code, checked).await
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Taken {
    pub offer: Offer,
    pub bonus: Bonus,
}

async fn activate_offer(ctx: Ctx, user: AuthUser, input: PromoInput) -> Result<Taken, ApiError> {
    crate::features::protection::refuse_if_excluded(&ctx.state, user.id).await?;
    limit_code_tries(&ctx, user.id).await?;
    let (user_id, rules, locale) = (user.id, Rules::of(&ctx.state), ctx.locale);
    let code = Arc::new(input.promo_code.trim().to_owned());
    let db = ctx.state.db().clone();
    let tried = Arc::clone(&code);
    let taken = on_lane(&ctx, user_id, move |conn| {
        let (db, code) = (db.clone(), Arc::clone(&code));
        Box::pin(async move {
            db.lock_user(conn, user_id).await?;
            let player = player_of(conn, user_id).await?;
            match campaigns::apply_code(conn, &rules, &code, &player).await.map_err(refusal)? {
                Ok((campaign, bonus)) => {
                    let amounts = campaigns::amounts(conn, campaign.id, bonus.currency().map_err(refusal)?).await?;
                    let bonus = engine::load_own(conn, user_id, bonus.id).await.map_err(refusal)?;
                    Ok(Taken {
                        offer: offer_view(&campaign, amounts.as_ref(), locale, true, Some(bonus.id)),
                        bonus: view(conn, &bonus, locale).await?,
                    })
                }
                Err(r) => Err(code_refusal(r)),
            }
        })
    })
    .await;
    audit_code(&ctx, user_id, &tried, taken).await
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TakeInput {
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1))]
    pub offer_id: Option<i64>,
}

impl Input for TakeInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.offer_id {
            None => errors.add("offer_id", FieldCode::Required),
            Some(id) if id < 1 => errors.add("offer_id", FieldCode::Invalid),
            Some(_) => {}
        }
    }
}

async fn take_offer(ctx: Ctx, user: AuthUser, input: TakeInput) -> Result<Taken, ApiError> {
    crate::features::protection::refuse_if_excluded(&ctx.state, user.id).await?;
    let (user_id, offer_id, rules, locale) = (user.id, input.offer_id.unwrap_or(0), Rules::of(&ctx.state), ctx.locale);
    let db = ctx.state.db().clone();
    on_lane(&ctx, user_id, move |conn| {
        let db = db.clone();
        Box::pin(async move {
            db.lock_user(conn, user_id).await?;
            let player = player_of(conn, user_id).await?;
            let campaign = campaigns::load(conn, offer_id)
                .await?
                .filter(|c| matches!(c.trigger_action.as_str(), "registration" | "deposit") && c.status != "draft")
                .ok_or_else(|| ApiError::field("offer_id", FieldCode::NotFound))?;
            let amounts = match campaigns::eligibility(conn, &campaign, &player).await? {
                Ok(a) => a,
                Err(Refusal::Over) => return Err(ApiError::field("offer_id", FieldCode::PromoExpired)),
                Err(Refusal::Taken) => return Err(ApiError::field("offer_id", FieldCode::PromoUsed)),
                Err(Refusal::NotEligible) => return Err(ApiError::field("offer_id", FieldCode::PromoNotEligible)),
            };
            let bonus =
                campaigns::take(conn, &rules, &campaign, &amounts, user_id, "offer taken").await.map_err(refusal)?;
            let bonus = engine::load_own(conn, user_id, bonus.id).await.map_err(refusal)?;
            Ok(Taken {
                offer: offer_view(&campaign, Some(&amounts), locale, true, Some(bonus.id)),
                bonus: view(conn, &bonus, locale).await?,
            })
        })
    })
    .await
}
