//! Campaigns (SPEC §3 Offer) and how a player takes one: by registering, by depositing, by a
//! promo code, by taking an offer, or by an operator's grant.

use super::Rules;
use super::engine::{self, Actor, BonusError, BonusRow, DAY_MS};
use crate::db::now_ms;
use croupier_shared::Currency;
use sqlx::AnyConnection;

/// The columns [`CampaignRow`] reads.
pub const COLUMNS: &str = "id, sysname, status, trigger_action, deposit_number, exclude_methods, audience, reward, \
     match_percent, freespin_game, freespin_count, wager_multiplier, wager_includes_deposit, games, title_en, title_fr, \
     text_en, text_fr, terms_en, terms_fr, image_url, promotions, starts_at, ends_at, claim_days, wager_days, max_takers, \
     takers, created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CampaignRow {
    pub id: i64,
    pub sysname: String,
    pub status: String,
    pub trigger_action: String,
    pub deposit_number: Option<i64>,
    pub exclude_methods: String,
    pub audience: String,
    pub reward: String,
    pub match_percent: i64,
    pub freespin_game: Option<String>,
    pub freespin_count: i64,
    pub wager_multiplier: i64,
    pub wager_includes_deposit: i64,
    pub games: String,
    pub title_en: String,
    pub title_fr: String,
    pub text_en: String,
    pub text_fr: String,
    pub terms_en: String,
    pub terms_fr: String,
    pub image_url: Option<String>,
    pub promotions: String,
    pub starts_at: Option<i64>,
    pub ends_at: Option<i64>,
    pub claim_days: i64,
    pub wager_days: i64,
    pub max_takers: Option<i64>,
    pub takers: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A campaign's amounts in one currency.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Amounts {
    pub currency: String,
    pub min_deposit: i64,
    pub max_bonus: i64,
    pub max_bet: i64,
    pub max_conversion: Option<i64>,
    pub freespin_bet: i64,
}

impl CampaignRow {
    /// Running now: active and inside its window.
    pub fn is_running(&self, now: i64) -> bool {
        self.status == "active" && self.starts_at.is_none_or(|s| s <= now) && self.ends_at.is_none_or(|e| e > now)
    }

    pub fn is_full(&self) -> bool {
        self.max_takers.is_some_and(|m| self.takers >= m)
    }

    /// A bonus of it is credited by a deposit.
    pub fn needs_deposit(&self) -> bool {
        self.reward == "deposit_match" || self.trigger_action == "deposit"
    }

    pub fn excludes(&self, method: &str) -> bool {
        self.exclude_methods.split(',').map(str::trim).any(|m| !m.is_empty() && m == method)
    }

    pub fn exclude_list(&self) -> Vec<String> {
        self.exclude_methods.split(',').map(str::trim).filter(|m| !m.is_empty()).map(str::to_owned).collect()
    }

    /// The countries of `audience` (`{"countries": [...]}`); empty: everyone.
    pub fn countries(&self) -> Vec<String> {
        serde_json::from_str::<serde_json::Value>(&self.audience)
            .ok()
            .and_then(|v| v.get("countries").and_then(|c| c.as_array()).cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|c| c.as_str().map(str::to_ascii_uppercase))
            .collect()
    }
}

pub async fn load(conn: &mut AnyConnection, id: i64) -> Result<Option<CampaignRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM campaigns WHERE id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await
}

pub async fn amounts(conn: &mut AnyConnection, id: i64, currency: Currency) -> Result<Option<Amounts>, sqlx::Error> {
    sqlx::query_as(
        "SELECT currency, min_deposit, max_bonus, max_bet, max_conversion, freespin_bet FROM campaign_amounts \
         WHERE campaign_id = $1 AND currency = $2",
    )
    .bind(id)
    .bind(currency.code())
    .fetch_optional(conn)
    .await
}

/// The player as campaigns see them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Player {
    pub id: i64,
    pub currency: Option<String>,
    pub country_code: Option<String>,
    pub status: String,
}

pub async fn player(conn: &mut AnyConnection, user_id: i64) -> Result<Option<Player>, sqlx::Error> {
    sqlx::query_as("SELECT id, currency, country_code, status FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await
}

/// How many successful deposits the player has made.
pub async fn deposits_made(conn: &mut AnyConnection, user_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM payments WHERE user_id = $1 AND direction = 'deposit' AND status = 'success'",
    )
    .bind(user_id)
    .fetch_one(conn)
    .await
}

/// Why a player cannot take a campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not running (paused, ended, outside its window) or full.
    Over,
    /// The player already has a bonus of it.
    Taken,
    /// The player does not qualify (currency, country, deposits made, not a real player).
    NotEligible,
}

/// Whether `player` may take `campaign` now, and its amounts in the player's currency.
pub async fn eligibility(
    conn: &mut AnyConnection,
    campaign: &CampaignRow,
    player: &Player,
) -> Result<Result<Amounts, Refusal>, sqlx::Error> {
    let now = now_ms();
    if !campaign.is_running(now) || campaign.is_full() {
        return Ok(Err(Refusal::Over));
    }
    if player.status != "active" {
        return Ok(Err(Refusal::NotEligible));
    }
    let taken: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM player_bonuses WHERE claim_key = $1")
        .bind(claim_key(campaign.id, player.id))
        .fetch_one(&mut *conn)
        .await?;
    if taken > 0 {
        return Ok(Err(Refusal::Taken));
    }
    let Some(currency) = player.currency.as_deref().and_then(Currency::parse) else {
        return Ok(Err(Refusal::NotEligible));
    };
    let Some(amounts) = amounts(conn, campaign.id, currency).await? else { return Ok(Err(Refusal::NotEligible)) };
    let countries = campaign.countries();
    if !countries.is_empty()
        && !player.country_code.as_deref().is_some_and(|c| countries.iter().any(|k| k.eq_ignore_ascii_case(c)))
    {
        return Ok(Err(Refusal::NotEligible));
    }
    // A campaign for the nth deposit is over for a player who has made n already.
    if let Some(n) = campaign.deposit_number
        && deposits_made(conn, player.id).await? >= n
    {
        return Ok(Err(Refusal::NotEligible));
    }
    Ok(Ok(amounts))
}

pub fn claim_key(campaign_id: i64, user_id: i64) -> String {
    format!("campaign:{campaign_id}:{user_id}")
}

/// Creates the player's bonus of `campaign` in `status` (offered, or active when the player took
/// it and it waits for a deposit) and counts the taker. `claim` is the bonus's unique key.
#[allow(clippy::too_many_arguments)]
pub async fn create_bonus(
    conn: &mut AnyConnection,
    campaign: &CampaignRow,
    amounts: &Amounts,
    user_id: i64,
    claim: &str,
    status: &str,
    reason: &str,
    actor: Actor,
) -> Result<BonusRow, BonusError> {
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO player_bonuses (user_id, campaign_id, claim_key, currency, status, reward, match_percent, max_bonus, \
         min_deposit, wager_multiplier, wager_includes_deposit, games, max_bet, max_conversion, freespin_game, freespin_count, \
         freespin_bet, awaiting_deposit, wager_days, title_en, title_fr, text_en, text_fr, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25) \
         RETURNING id",
    )
    .bind(user_id)
    .bind(campaign.id)
    .bind(claim)
    .bind(&amounts.currency)
    .bind(status)
    .bind(&campaign.reward)
    .bind(campaign.match_percent)
    .bind(amounts.max_bonus)
    .bind(amounts.min_deposit)
    .bind(campaign.wager_multiplier)
    .bind(campaign.wager_includes_deposit)
    .bind(&campaign.games)
    .bind(amounts.max_bet)
    .bind(amounts.max_conversion)
    .bind(&campaign.freespin_game)
    .bind(campaign.freespin_count)
    .bind(amounts.freespin_bet)
    .bind(i64::from(campaign.needs_deposit()))
    .bind(campaign.wager_days)
    .bind(&campaign.title_en)
    .bind(&campaign.title_fr)
    .bind(&campaign.text_en)
    .bind(&campaign.text_fr)
    .bind(now + campaign.claim_days.max(1) * DAY_MS)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query("UPDATE campaigns SET takers = takers + 1 WHERE id = $1").bind(campaign.id).execute(&mut *conn).await?;
    engine::event(conn, id, None, status, reason, actor, 0).await?;
    engine::load(conn, id).await?.ok_or(BonusError::NotFound)
}

/// The player takes `campaign` (an offer, a promo code, registration): a bonus that needs a
/// deposit waits for it (active); one that does not is credited now, or offered when the player
/// already wagers as many bonuses as allowed (they activate it later).
pub async fn take(
    conn: &mut AnyConnection,
    rules: &Rules,
    campaign: &CampaignRow,
    amounts: &Amounts,
    user_id: i64,
    reason: &str,
) -> Result<BonusRow, BonusError> {
    let claim = claim_key(campaign.id, user_id);
    if campaign.needs_deposit() {
        return create_bonus(conn, campaign, amounts, user_id, &claim, "active", reason, Actor::Player).await;
    }
    let bonus = create_bonus(conn, campaign, amounts, user_id, &claim, "offered", reason, Actor::Player).await?;
    match engine::credit(conn, rules, &bonus, None, Actor::Player, reason).await {
        Ok(credited) => Ok(credited),
        Err(BonusError::ActiveLimit(_)) => Ok(bonus),
        Err(e) => Err(e),
    }
}

/// The key a promo code is stored and found under: SHA-256 of the code upper-cased, in hex.
///
/// Finding a code is then an equality on a digest, not on the code: whatever the index lookup's
/// timing tells a guesser is about digests, which says nothing about which codes exist (the
/// constant-time comparison that codes, passwords and signatures get elsewhere).
pub fn code_key(code: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(code.trim().to_uppercase().as_bytes()))
}

/// Installs made before [`code_key`] stored the upper-cased code itself: re-key those rows, once,
/// at start. Only they match `code_key = UPPER(code)` (codes are ASCII, so SQL's `UPPER` is
/// Rust's), so a start reads nothing once they are done.
pub async fn rekey_promo_codes(db: &crate::db::Db) -> Result<u64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let old: Vec<(String, String)> =
        sqlx::query_as("SELECT code_key, code FROM promo_codes WHERE code_key = UPPER(code)")
            .fetch_all(&mut *tx)
            .await?;
    let mut rekeyed = 0;
    for (key, code) in old {
        rekeyed += sqlx::query("UPDATE promo_codes SET code_key = $1 WHERE code_key = $2")
            .bind(code_key(&code))
            .bind(&key)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    tx.commit().await?;
    Ok(rekeyed)
}

/// A promo code's campaign, by the code in any case.
pub async fn by_code(
    conn: &mut AnyConnection,
    code: &str,
) -> Result<Option<(CampaignRow, String, Option<i64>, i64)>, sqlx::Error> {
    let key = code_key(code);
    let row: Option<(i64, String, Option<i64>, i64)> =
        sqlx::query_as("SELECT campaign_id, status, max_uses, uses FROM promo_codes WHERE code_key = $1")
            .bind(&key)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((campaign_id, status, max_uses, uses)) = row else { return Ok(None) };
    Ok(load(conn, campaign_id).await?.map(|c| (c, status, max_uses, uses)))
}

/// What is wrong with a promo code for a player (the `error_data.promo_code` codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeRefusal {
    NotFound,
    Used,
    Expired,
    NotEligible,
}

/// Checks `code` for the player and answers its campaign and amounts.
pub async fn check_code(
    conn: &mut AnyConnection,
    code: &str,
    player: &Player,
) -> Result<Result<(CampaignRow, Amounts), CodeRefusal>, sqlx::Error> {
    let Some((campaign, status, max_uses, uses)) = by_code(conn, code).await? else {
        return Ok(Err(CodeRefusal::NotFound));
    };
    if campaign.trigger_action != "promo_code" || campaign.status == "draft" {
        return Ok(Err(CodeRefusal::NotFound));
    }
    if status != "active" || max_uses.is_some_and(|m| uses >= m) {
        return Ok(Err(CodeRefusal::Expired));
    }
    Ok(match eligibility(conn, &campaign, player).await? {
        Ok(amounts) => Ok((campaign, amounts)),
        Err(Refusal::Over) => Err(CodeRefusal::Expired),
        Err(Refusal::Taken) => Err(CodeRefusal::Used),
        Err(Refusal::NotEligible) => Err(CodeRefusal::NotEligible),
    })
}

/// Applies `code` for the player: takes its campaign and counts the use.
pub async fn apply_code(
    conn: &mut AnyConnection,
    rules: &Rules,
    code: &str,
    player: &Player,
) -> Result<Result<(CampaignRow, BonusRow), CodeRefusal>, BonusError> {
    let (campaign, amounts) = match check_code(conn, code, player).await? {
        Ok(found) => found,
        Err(refusal) => return Ok(Err(refusal)),
    };
    sqlx::query("UPDATE promo_codes SET uses = uses + 1 WHERE code_key = $1")
        .bind(code_key(code))
        .execute(&mut *conn)
        .await?;
    let bonus = take(conn, rules, &campaign, &amounts, player.id, &format!("promo code {}", code.trim())).await?;
    Ok(Ok((campaign, bonus)))
}

/// A new player: every running registration campaign is offered, and the promo code typed at
/// registration (or carried by the link) is applied. A bad code does not stop a registration:
/// it is logged and dropped.
pub async fn on_registration(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    promo_code: Option<&str>,
) -> Result<(), BonusError> {
    let Some(player) = player(conn, user_id).await? else { return Ok(()) };
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM campaigns WHERE trigger_action = 'registration' AND status = 'active' ORDER BY id",
    )
    .fetch_all(&mut *conn)
    .await?;
    for id in ids {
        let Some(campaign) = load(conn, id).await? else { continue };
        if let Ok(amounts) = eligibility(conn, &campaign, &player).await? {
            let claim = claim_key(campaign.id, user_id);
            create_bonus(conn, &campaign, &amounts, user_id, &claim, "offered", "registration", Actor::System).await?;
        }
    }
    if let Some(code) = promo_code.map(str::trim).filter(|c| !c.is_empty()) {
        match apply_code(conn, rules, code, &player).await? {
            Ok((campaign, bonus)) => {
                tracing::info!(user_id, campaign = campaign.id, bonus = bonus.id, "promo code applied at registration")
            }
            Err(refusal) => tracing::info!(user_id, ?refusal, "the promo code given at registration was not applied"),
        }
    }
    Ok(())
}

/// A successful deposit, in its crediting transaction: the bonus it qualifies for is credited.
/// The candidate is the offer picked at the deposit (`campaign_offer_id`, taken now if the player
/// has no bonus of it yet), else the player's oldest bonus waiting for a deposit. `none` (or `0`)
/// asks for no bonus. A deposit that does not qualify (too small, an excluded method, not the
/// campaign's nth deposit) leaves the bonus waiting; nothing here ever refuses the deposit.
#[allow(clippy::too_many_arguments)]
pub async fn on_deposit(
    conn: &mut AnyConnection,
    rules: &Rules,
    user_id: i64,
    payment_id: &str,
    amount: i64,
    currency: Currency,
    method: &str,
    campaign_offer_id: Option<&str>,
) -> Result<Option<i64>, BonusError> {
    let picked = campaign_offer_id.map(str::trim).filter(|c| !c.is_empty());
    if matches!(picked, Some("none" | "0")) {
        return Ok(None);
    }
    let mut candidates: Vec<BonusRow> = Vec::new();
    if let Some(id) = picked.and_then(|p| p.parse::<i64>().ok()) {
        let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM player_bonuses WHERE claim_key = $1")
            .bind(claim_key(id, user_id))
            .fetch_optional(&mut *conn)
            .await?;
        match existing {
            Some(bonus_id) => candidates.extend(engine::load(conn, bonus_id).await?),
            None => {
                if let (Some(campaign), Some(player)) = (load(conn, id).await?, player(conn, user_id).await?)
                    && campaign.trigger_action == "deposit"
                {
                    // This deposit is already counted: the nth-deposit check allows it.
                    let n = deposits_made(conn, user_id).await?;
                    if campaign.deposit_number.is_none_or(|d| d == n)
                        && let Some(amounts) = amounts(conn, campaign.id, currency).await?
                        && campaign.is_running(now_ms())
                        && !campaign.is_full()
                        && player.status == "active"
                    {
                        let claim = claim_key(campaign.id, user_id);
                        candidates.push(
                            create_bonus(
                                conn,
                                &campaign,
                                &amounts,
                                user_id,
                                &claim,
                                "active",
                                "picked at deposit",
                                Actor::Player,
                            )
                            .await?,
                        );
                    }
                }
            }
        }
    } else {
        let waiting: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM player_bonuses WHERE user_id = $1 AND status = 'active' AND awaiting_deposit = 1 ORDER BY id",
        )
        .bind(user_id)
        .fetch_all(&mut *conn)
        .await?;
        for id in waiting {
            candidates.extend(engine::load(conn, id).await?);
        }
    }
    let n = deposits_made(conn, user_id).await?;
    for bonus in candidates {
        if bonus.user_id != user_id
            || bonus.status != "active"
            || bonus.awaiting_deposit != 1
            || bonus.currency != currency.code()
            || amount < bonus.min_deposit
        {
            continue;
        }
        if let Some(campaign_id) = bonus.campaign_id
            && let Some(campaign) = load(conn, campaign_id).await?
            && (campaign.excludes(method) || campaign.deposit_number.is_some_and(|d| d != n))
        {
            continue;
        }
        match engine::credit(conn, rules, &bonus, Some((payment_id, amount)), Actor::System, "qualifying deposit").await
        {
            Ok(credited) => return Ok(Some(credited.id)),
            Err(BonusError::ActiveLimit(_)) => {
                // Credited later: it goes back to offered, the deposit remembered.
                sqlx::query("UPDATE player_bonuses SET payment_id = $1, deposit_amount = $2 WHERE id = $3")
                    .bind(payment_id)
                    .bind(amount)
                    .bind(bonus.id)
                    .execute(&mut *conn)
                    .await?;
                engine::transition(
                    conn,
                    &bonus,
                    "offered",
                    "deposit made while at the active-bonus limit",
                    Actor::System,
                    0,
                )
                .await?;
                return Ok(None);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}
