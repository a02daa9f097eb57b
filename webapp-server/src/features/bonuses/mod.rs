//! Bonuses, campaigns (offers), promo codes, banners and popups (SPEC §3 Offer, §7 `bonuses.*`,
//! `campaigns.*`, `banners.get`, `popups.get`) — the bonus engine, for real money.
//!
//! # Campaigns
//! A campaign has a trigger (`registration`, `deposit` — the nth deposit, a minimum, excluded
//! payment methods —, `promo_code` or `manual`), a reward (`deposit_match` in percent capped per
//! currency, `fixed` bonus money, `freespins` of a house game — which any reward may also carry —
//! or a sportsbook betting bonus: a `freebet` or an `odds_boost`, see [`betting`]), amounts per currency (a campaign is not offered in a currency it
//! has none for), a window in which it can be taken, a maximum number of takers, how long a taken
//! bonus waits (`claim_days`) and how long it can be wagered (`wager_days`). `audience`
//! (`{"countries": [...]}`) is SPEC's `user_satisfies_params`. A player takes a campaign once.
//!
//! # A player's bonus
//! `offered` (granted, waiting for the player: `bonuses.activate`) → `active` (taken, waiting for
//! a qualifying deposit; `bonuses.deactivate` puts it back to offered) → `wagering` (its money is
//! on the bonus balance, its free spins given) → `completed` (wagering done: its balance turns into
//! real money up to its maximum conversion, the rest goes back to the house) / `expired` (its
//! deadline passed) / `forfeited` (removed while wagering, burnt by a withdrawal, or spent down to
//! nothing) / `cancelled` (declined before any money moved). Every transition is a row of
//! `bonus_events` with its reason and actor. At most `CROUPIER_BONUS_MAX_ACTIVE` bonuses wager at
//! once; a bonus that would be one too many waits as offered.
//!
//! # Wagering
//! Target = bonus × multiplier, or (bonus + deposit) × multiplier for campaigns that say so; the
//! multiplier is capped by `CROUPIER_BONUS_WAGER_CAP` when it is set (the UK's 10× from 2026). A
//! free-spin pack's wins add win × multiplier to its bonus's target. Each real-money bet counts
//! its stake × the game's contribution percent (`bonus_contributions`: the game's row, else its
//! type's, else 100 %; 0 % excludes) towards the oldest wagering bonus that is for the game and
//! not yet done. While a bonus that is for the game is wagering, a bet over its maximum bet is
//! refused (`BonusMaxBetExceededException`, the house round's `bonus_max_bet`), never silently
//! uncounted. Progress is written in the bet's own transaction, on the group committer, for house
//! rounds and aggregators' wallet calls alike; a rollback takes it back.
//!
//! # Which money a bet spends
//! Real money first, always. What the main balance cannot cover comes from the wagering bonuses,
//! oldest first: with `CROUPIER_BONUS_ISOLATION` off (shared) from any of them; with it on
//! (isolated) only from the bonuses that are for the game being played (a bonus with no game
//! list is for every game; a free-spins bonus is for its game when its campaign says so). A win
//! is split like the round's stakes: each bonus gets win × (what it staked ÷ the round's bet),
//! main the rest; the share of a bonus completed meanwhile is real money, that of a bonus ended
//! unpaid goes back to the house. A round's settlement completes every bonus that has met its
//! target, and forfeits one whose balance is spent — unless one of its rounds is still open or
//! its free spins are not all played.
//!
//! # Money
//! Every movement is a ledger posting against the house's bonus liability account with its own
//! idempotency key (`bonus:{id}:credit|complete|forfeit`; bets and wins keep the wallet's keys);
//! the sum of the balances of a player's wagering bonuses is their bonus account.
//!
//! # Withdrawals
//! A withdrawal while a bonus is wagering needs the player's confirmation that it burns the
//! bonuses (`BonusBurnConfirmationRequiredException`, then `burn_bonuses=1`); the bonuses are then
//! forfeited in the withdrawal's own transaction.
//!
//! # Promo codes
//! Case-insensitive, one campaign each, once per player; `campaigns.checkPromocode` and
//! `campaigns.activateOffer` are rate-limited per player (and per address) against guessing.
//! A code given at registration is applied then (a bad one never stops the registration).

pub mod admin;
pub mod betting;
pub mod campaigns;
pub mod content;
pub mod engine;
pub mod jobs;
pub mod methods;

use crate::AppState;

pub use methods::register;

/// The engine's settings, from the configuration.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// `CROUPIER_BONUS_ISOLATION`.
    pub isolation: bool,
    /// `CROUPIER_BONUS_MAX_ACTIVE`.
    pub max_active: i64,
    /// `CROUPIER_BONUS_WAGER_CAP` (0: none).
    pub wager_cap: i64,
    /// `CROUPIER_BIG_WIN_MULTIPLIER`: a real round winning this many times its bet is listed
    /// among the winners (`features::winners`); the wallet reads it with the rest.
    pub big_win: i64,
}

impl Rules {
    pub fn of(state: &AppState) -> Rules {
        let config = state.config();
        Rules {
            isolation: config.bonus_isolation,
            max_active: config.bonus_max_active,
            wager_cap: config.bonus_wager_cap,
            big_win: config.big_win_multiplier,
        }
    }

    /// A campaign's multiplier under the regulatory cap.
    pub fn multiplier(&self, multiplier: i64) -> i64 {
        if self.wager_cap > 0 { multiplier.clamp(0, self.wager_cap) } else { multiplier.max(0) }
    }
}

/// The demo campaigns the demo content advertises, made once, when there is no campaign yet:
/// `welcome` (100 % of the first deposit up to 500 + 50 free spins of Gem Rush, 35× wagering)
/// and `weekend` (the code WEEKEND: 50 % up to 200, 30×). Operators edit or end them like any.
pub async fn seed_demo(db: &crate::db::Db) -> anyhow::Result<bool> {
    use admin::{AmountInput, CampaignInput};
    let mut tx = db.begin().await?;
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM campaigns").fetch_one(&mut *tx).await?;
    if count > 0 {
        return Ok(false);
    }
    let amounts = |min: i64, max: i64, spin_bet: i64| -> Vec<AmountInput> {
        ["USD", "EUR", "GBP", "CAD"]
            .iter()
            .map(|c| AmountInput {
                currency: (*c).to_owned(),
                min_deposit: min * 100,
                max_bonus: max * 100,
                max_bet: 500,
                max_conversion: None,
                freespin_bet: spin_bet,
            })
            .collect()
    };
    let welcome = CampaignInput {
        sysname: "welcome".into(),
        status: Some("active".into()),
        trigger: "deposit".into(),
        deposit_number: Some(1),
        exclude_methods: Vec::new(),
        countries: Vec::new(),
        reward: "deposit_match".into(),
        match_percent: 100,
        freespin_game: Some("gem-rush".into()),
        freespin_count: 50,
        wager_multiplier: 35,
        wager_includes_deposit: false,
        games: Vec::new(),
        title_en: "Welcome bonus".into(),
        title_fr: "Bonus de bienvenue".into(),
        text_en: "100% of your first deposit up to $500, plus 50 free spins on Gem Rush.".into(),
        text_fr: "100 % de votre premier dépôt jusqu'à 500 $, plus 50 tours gratuits sur Gem Rush.".into(),
        terms_en: "Minimum deposit 10. Wager the bonus 35 times within 30 days; bets up to 5 while wagering. Slots count 100%, table and live games 10%.".into(),
        terms_fr: "Dépôt minimum 10. Misez le bonus 35 fois en 30 jours ; mises jusqu'à 5 pendant la mise. Les machines à sous comptent à 100 %, les jeux de table et en direct à 10 %.".into(),
        image_url: Some("/uploads/banner-welcome.svg".into()),
        promotions: vec!["welcome".into()],
        starts_at: None,
        ends_at: None,
        claim_days: Some(7),
        wager_days: Some(30),
        max_takers: None,
        amounts: amounts(10, 500, 20),
        version: None,
    };
    let weekend = CampaignInput {
        sysname: "weekend".into(),
        trigger: "promo_code".into(),
        deposit_number: None,
        match_percent: 50,
        freespin_game: None,
        freespin_count: 0,
        wager_multiplier: 30,
        title_en: "Weekend reload".into(),
        title_fr: "Recharge du week-end".into(),
        text_en: "50% up to $200 on your next deposit with the code WEEKEND.".into(),
        text_fr: "50 % jusqu'à 200 $ sur votre prochain dépôt avec le code WEEKEND.".into(),
        terms_en: "Minimum deposit 20. Wager the bonus 30 times within 30 days; bets up to 5 while wagering.".into(),
        terms_fr: "Dépôt minimum 20. Misez le bonus 30 fois en 30 jours ; mises jusqu'à 5 pendant la mise.".into(),
        image_url: Some("/uploads/banner-weekend.svg".into()),
        promotions: vec!["weekend-reload".into()],
        amounts: amounts(20, 200, 0),
        ..welcome.clone()
    };
    welcome.check(&mut tx).await.map_err(|e| anyhow::anyhow!("demo campaign welcome: {e:?}"))?;
    weekend.check(&mut tx).await.map_err(|e| anyhow::anyhow!("demo campaign weekend: {e:?}"))?;
    admin::write_campaign(&mut tx, &welcome).await?;
    let weekend_id = admin::write_campaign(&mut tx, &weekend).await?;
    sqlx::query(
        "INSERT INTO promo_codes (code_key, code, campaign_id, status, max_uses, uses, created_at) VALUES ($1, 'WEEKEND', $2, 'active', NULL, 0, $3)",
    )
    .bind(campaigns::code_key("WEEKEND"))
    .bind(weekend_id)
    .bind(crate::db::now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!("demo campaigns made");
    Ok(true)
}
