//! Notifications the server sends to players through the bot (DESIGN.md "Background work": the
//! transactional outbox). The server stores a [`Notice`] as JSON in its outbox row, in the same
//! transaction as the event; its delivery job renders it here, in the player's language, with a
//! button that opens the right mini-app page, and sends it through the throttled bot.
//!
//! Adding a kind is one step: a variant of [`Notice`] and its arm in [`Notice::render`].

use crate::{BotSettings, TgBot, app_url};
use croupier_shared::Locale;
use serde::{Deserialize, Serialize};
use teloxide::RequestError;
use teloxide::prelude::*;
use teloxide::types::InlineKeyboardMarkup;

/// One notification. Amounts are the decimal strings of the wire format (`"10.00"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    DepositSucceeded {
        payment_id: String,
        amount: String,
        currency: String,
    },
    DepositFailed {
        payment_id: String,
        amount: String,
        currency: String,
    },
    WithdrawalPaid {
        payment_id: String,
        amount: String,
        currency: String,
    },
    /// A bonus was credited (its money is on the bonus balance, or its free spins are ready).
    BonusCredited {
        bonus_id: i64,
        /// The bonus money, decimal ("0.00" for free spins only).
        amount: String,
        currency: String,
        /// The campaign's title in English and French.
        title_en: String,
        title_fr: String,
    },
    /// A wagering bonus expires in about a day.
    BonusExpiring {
        bonus_id: i64,
        /// What is left of it, decimal.
        balance: String,
        currency: String,
        /// Wagering done, 0 to 100.
        progress: i64,
    },
    /// A cashback is ready to claim (the message carries a button that claims it in the chat).
    CashbackReady {
        cashback_id: i64,
        amount: String,
        currency: String,
        /// The programme's title (the cashback's description) in English and French.
        title_en: String,
        title_fr: String,
        /// Unix seconds; none: no deadline.
        #[serde(default)]
        claim_until: Option<i64>,
    },
    /// A cashback was paid (to the main balance, or as a wagering bonus).
    CashbackPaid {
        cashback_id: i64,
        amount: String,
        currency: String,
        as_bonus: bool,
    },
    /// A loyalty level reached (with its reward, when the level grants bonus money).
    LoyaltyLevel {
        level: i64,
        title_en: String,
        title_fr: String,
        /// The level's bonus, decimal.
        #[serde(default)]
        reward: Option<String>,
        #[serde(default)]
        currency: Option<String>,
    },
    /// A loyalty quest completed, and the points it credited.
    QuestCompleted {
        quest_id: i64,
        title_en: String,
        title_fr: String,
        points: i64,
    },
    /// A product bought in the loyalty shop, for `price` points.
    ProductBought {
        purchase_id: i64,
        title_en: String,
        title_fr: String,
        price: i64,
    },
    /// The weekly summary a player opted into: points, level progress, the week's cashback.
    WeeklySummary {
        points: i64,
        lifetime_points: i64,
        level: i64,
        level_title_en: String,
        level_title_fr: String,
        /// Lifetime points the next level needs; none at the top.
        #[serde(default)]
        next_level_points: Option<i64>,
        /// The week's cashback, decimal.
        #[serde(default)]
        cashback: Option<String>,
        #[serde(default)]
        currency: Option<String>,
    },
    /// A jackpot dropped to the player (the money is on their main balance).
    JackpotWon {
        pool_id: i64,
        amount: String,
        currency: String,
        title_en: String,
        title_fr: String,
    },
    /// A tournament prize paid: money and bonus carry their amount, free spins their count,
    /// points their number.
    TournamentPrize {
        tournament_id: i64,
        title_en: String,
        title_fr: String,
        rank: i64,
        /// money, bonus, freespins or points.
        prize: String,
        #[serde(default)]
        amount: Option<String>,
        #[serde(default)]
        currency: Option<String>,
        #[serde(default)]
        points: Option<i64>,
        #[serde(default)]
        spins: Option<i64>,
    },
    /// A participant's final rank (they asked for it when joining).
    TournamentRank {
        tournament_id: i64,
        title_en: String,
        title_fr: String,
        rank: i64,
        participants: i64,
    },
    /// A one-time code (sign-in, two-factor change, contact confirmation, restore).
    Code {
        code: String,
    },
}

/// What a notice looks like in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    pub button: String,
    /// The mini-app page the button opens (unprefixed path).
    pub path: String,
    /// A second button acting in the chat: (label, callback data). A cashback ready to claim
    /// has one (`cb:{id}`) that claims it.
    pub action: Option<(String, String)>,
}

impl Notice {
    /// The kind's name, as stored in the outbox's `kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::DepositSucceeded { .. } => "deposit_succeeded",
            Notice::DepositFailed { .. } => "deposit_failed",
            Notice::WithdrawalPaid { .. } => "withdrawal_paid",
            Notice::BonusCredited { .. } => "bonus_credited",
            Notice::BonusExpiring { .. } => "bonus_expiring",
            Notice::CashbackReady { .. } => "cashback_ready",
            Notice::CashbackPaid { .. } => "cashback_paid",
            Notice::LoyaltyLevel { .. } => "loyalty_level",
            Notice::QuestCompleted { .. } => "quest_completed",
            Notice::ProductBought { .. } => "product_bought",
            Notice::WeeklySummary { .. } => "weekly_summary",
            Notice::JackpotWon { .. } => "jackpot_won",
            Notice::TournamentPrize { .. } => "tournament_prize",
            Notice::TournamentRank { .. } => "tournament_rank",
            Notice::Code { .. } => "code",
        }
    }

    /// Whether it is promotional (offers, rewards, the club): not sent to a player who opted out
    /// of promotions. Money movements and codes always go.
    pub fn is_promotional(&self) -> bool {
        matches!(
            self,
            Notice::BonusCredited { .. }
                | Notice::BonusExpiring { .. }
                | Notice::CashbackReady { .. }
                | Notice::LoyaltyLevel { .. }
                | Notice::QuestCompleted { .. }
                | Notice::ProductBought { .. }
                | Notice::WeeklySummary { .. }
                | Notice::TournamentRank { .. }
        )
    }

    /// Whether the stored payload is a secret to wipe once delivered.
    pub fn is_secret(&self) -> bool {
        matches!(self, Notice::Code { .. })
    }

    pub fn render(&self, locale: Locale, site: &str) -> Rendered {
        let pick = |en_text: String, fr_text: String| if locale == Locale::Fr { fr_text } else { en_text };
        match self {
            Notice::DepositSucceeded { amount, currency, .. } => Rendered {
                text: pick(
                    format!("Your deposit of {amount} {currency} is on your balance. Good luck!"),
                    format!("Votre dépôt de {amount} {currency} est sur votre solde. Bonne chance !"),
                ),
                button: pick("Play now".into(), "Jouer maintenant".into()),
                path: "/gamehall".into(),
                action: None,
            },
            Notice::DepositFailed { amount, currency, .. } => Rendered {
                text: pick(
                    format!("Your deposit of {amount} {currency} did not go through. No money was taken."),
                    format!("Votre dépôt de {amount} {currency} n'a pas abouti. Aucun montant n'a été débité."),
                ),
                button: pick("Try again".into(), "Réessayer".into()),
                path: "/cashier/deposit".into(),
                action: None,
            },
            Notice::WithdrawalPaid { amount, currency, .. } => Rendered {
                text: pick(
                    format!("Your withdrawal of {amount} {currency} has been paid."),
                    format!("Votre retrait de {amount} {currency} a été payé."),
                ),
                button: pick("Open the cashier".into(), "Ouvrir la caisse".into()),
                path: "/cashier".into(),
                action: None,
            },
            Notice::BonusCredited { amount, currency, title_en, title_fr, .. } => Rendered {
                text: if amount.trim_start_matches(['0', '.']).is_empty() {
                    pick(
                        format!("Your bonus \u{201c}{title_en}\u{201d} is ready. Enjoy!"),
                        format!("Votre bonus \u{ab}\u{a0}{title_fr}\u{a0}\u{bb} est prêt. Bon jeu !"),
                    )
                } else {
                    pick(
                        format!(
                            "Your bonus \u{201c}{title_en}\u{201d} of {amount} {currency} is on your bonus balance."
                        ),
                        format!(
                            "Votre bonus \u{ab}\u{a0}{title_fr}\u{a0}\u{bb} de {amount} {currency} est sur votre solde bonus."
                        ),
                    )
                },
                button: pick("See my bonuses".into(), "Voir mes bonus".into()),
                path: "/profile/bonuses".into(),
                action: None,
            },
            Notice::BonusExpiring { balance, currency, progress, .. } => Rendered {
                text: pick(
                    format!(
                        "Your bonus of {balance} {currency} expires in 24 hours. Wagering done: {progress}%. Play on to keep it."
                    ),
                    format!(
                        "Votre bonus de {balance} {currency} expire dans 24 heures. Mise effectuée : {progress} %. Continuez à jouer pour le garder."
                    ),
                ),
                button: pick("See my bonuses".into(), "Voir mes bonus".into()),
                path: "/profile/bonuses".into(),
                action: None,
            },
            Notice::CashbackReady { cashback_id, amount, currency, title_en, title_fr, claim_until } => Rendered {
                text: {
                    let until = claim_until.map(|t| crate::texts::date(locale, t));
                    match until {
                        Some(until) => pick(
                            format!("{title_en}: {amount} {currency} is yours to claim until {until}."),
                            format!("{title_fr} : {amount} {currency} à réclamer avant le {until}."),
                        ),
                        None => pick(
                            format!("{title_en}: {amount} {currency} is yours to claim."),
                            format!("{title_fr} : {amount} {currency} à réclamer."),
                        ),
                    }
                },
                button: pick("See my cashback".into(), "Voir mon cashback".into()),
                path: "/profile/cashback".into(),
                action: Some((crate::texts::claim_button(locale, amount, currency), format!("cb:{cashback_id}"))),
            },
            Notice::CashbackPaid { amount, currency, as_bonus, .. } => Rendered {
                text: if *as_bonus {
                    pick(
                        format!("Your cashback of {amount} {currency} is on your bonus balance."),
                        format!("Votre cashback de {amount} {currency} est sur votre solde bonus."),
                    )
                } else {
                    pick(
                        format!("Your cashback of {amount} {currency} is on your balance."),
                        format!("Votre cashback de {amount} {currency} est sur votre solde."),
                    )
                },
                button: pick("Play now".into(), "Jouer maintenant".into()),
                path: "/gamehall".into(),
                action: None,
            },
            Notice::LoyaltyLevel { level, title_en, title_fr, reward, currency } => Rendered {
                text: match (reward, currency) {
                    (Some(reward), Some(currency)) => pick(
                        format!(
                            "You reached level {level}, {title_en}! Your reward of {reward} {currency} is on your bonus balance."
                        ),
                        format!(
                            "Vous avez atteint le niveau {level}, {title_fr} ! Votre récompense de {reward} {currency} est sur votre solde bonus."
                        ),
                    ),
                    _ => pick(
                        format!("You reached level {level}, {title_en}!"),
                        format!("Vous avez atteint le niveau {level}, {title_fr} !"),
                    ),
                },
                button: pick("See my level".into(), "Voir mon niveau".into()),
                path: "/loyalty".into(),
                action: None,
            },
            Notice::QuestCompleted { title_en, title_fr, points, .. } => Rendered {
                text: pick(
                    format!("Quest completed: \u{201c}{title_en}\u{201d}. {points} points are yours."),
                    format!("Quête accomplie : \u{ab}\u{a0}{title_fr}\u{a0}\u{bb}. {points} points pour vous."),
                ),
                button: pick("See my quests".into(), "Voir mes quêtes".into()),
                path: "/loyalty".into(),
                action: None,
            },
            Notice::ProductBought { title_en, title_fr, price, .. } => Rendered {
                text: pick(
                    format!("You bought \u{201c}{title_en}\u{201d} for {price} points. Enjoy!"),
                    format!("Vous avez acheté \u{ab}\u{a0}{title_fr}\u{a0}\u{bb} pour {price} points. Profitez-en !"),
                ),
                button: pick("Open the shop".into(), "Ouvrir la boutique".into()),
                path: "/loyalty/shop".into(),
                action: None,
            },
            Notice::WeeklySummary {
                points,
                level,
                level_title_en,
                level_title_fr,
                next_level_points,
                cashback,
                currency,
                lifetime_points,
            } => Rendered {
                text: {
                    let mut en = format!("Your week: {points} points to spend, level {level} ({level_title_en}).");
                    let mut fr =
                        format!("Votre semaine : {points} points à dépenser, niveau {level} ({level_title_fr}).");
                    if let Some(next) = next_level_points {
                        let left = (next - lifetime_points).max(0);
                        en.push_str(&format!(" {left} points to the next level."));
                        fr.push_str(&format!(" Encore {left} points avant le niveau suivant."));
                    }
                    if let (Some(cashback), Some(currency)) = (cashback, currency) {
                        en.push_str(&format!(" Cashback of the week: {cashback} {currency}."));
                        fr.push_str(&format!(" Cashback de la semaine : {cashback} {currency}."));
                    }
                    pick(en, fr)
                },
                button: pick("Open the club".into(), "Ouvrir le club".into()),
                path: "/loyalty".into(),
                action: None,
            },
            Notice::JackpotWon { amount, currency, title_en, title_fr, .. } => Rendered {
                text: pick(
                    format!("Jackpot! You won {title_en}: {amount} {currency} is on your balance."),
                    format!("Jackpot ! Vous avez gagné {title_fr} : {amount} {currency} sont sur votre solde."),
                ),
                button: pick("See the jackpots".into(), "Voir les jackpots".into()),
                path: "/jackpots".into(),
                action: None,
            },
            Notice::TournamentPrize {
                tournament_id,
                title_en,
                title_fr,
                rank,
                prize,
                amount,
                currency,
                points,
                spins,
            } => Rendered {
                text: {
                    let (en, fr) = match (prize.as_str(), amount, currency) {
                        ("money", Some(a), Some(c)) => {
                            (format!("{a} {c} is on your balance."), format!("{a} {c} sont sur votre solde."))
                        }
                        ("bonus", Some(a), Some(c)) => (
                            format!("a bonus of {a} {c} is on your bonus balance."),
                            format!("un bonus de {a} {c} est sur votre solde bonus."),
                        ),
                        ("freespins", _, _) => {
                            let n = spins.unwrap_or(0);
                            (format!("{n} free spins are yours."), format!("{n} tours gratuits pour vous."))
                        }
                        _ => {
                            let n = points.unwrap_or(0);
                            (format!("{n} points are yours."), format!("{n} points pour vous."))
                        }
                    };
                    pick(
                        format!("You finished #{rank} in \u{201c}{title_en}\u{201d}: {en}"),
                        format!("Vous terminez n\u{b0}\u{a0}{rank} de \u{ab}\u{a0}{title_fr}\u{a0}\u{bb} : {fr}"),
                    )
                },
                button: pick("See the results".into(), "Voir les résultats".into()),
                path: format!("/tournaments/{tournament_id}"),
                action: None,
            },
            Notice::TournamentRank { tournament_id, title_en, title_fr, rank, participants } => Rendered {
                text: pick(
                    format!("\u{201c}{title_en}\u{201d} is over: you finished #{rank} of {participants}."),
                    format!(
                        "\u{ab}\u{a0}{title_fr}\u{a0}\u{bb} est terminé : vous finissez n\u{b0}\u{a0}{rank} sur {participants}."
                    ),
                ),
                button: pick("See the results".into(), "Voir les résultats".into()),
                path: format!("/tournaments/{tournament_id}"),
                action: None,
            },
            Notice::Code { code } => Rendered {
                text: pick(
                    format!("Your {site} code is {code}. It expires in 5 minutes. Never share it."),
                    format!("Votre code {site} est {code}. Il expire dans 5 minutes. Ne le partagez jamais."),
                ),
                button: pick("Open the casino".into(), "Ouvrir le casino".into()),
                path: "/".into(),
                action: None,
            },
        }
    }
}

/// Why a notice was not delivered.
#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    /// The player blocked the bot (or deleted their account): stop writing to them.
    #[error("the player blocked the bot")]
    Blocked,
    /// Anything else: worth another try later.
    #[error("delivery failed: {0}")]
    Failed(String),
}

/// Sends `notice` to `chat_id` (the player's private chat) in `locale`. `key` is the outbox row's
/// idempotency key; it rides in the button's URL (`n=`) so each delivery is recognisable.
/// Throttling and 429 `retry_after` waits happen inside [`TgBot`].
pub async fn deliver(
    bot: &TgBot,
    settings: &BotSettings,
    chat_id: i64,
    locale: Locale,
    notice: &Notice,
    key: &str,
) -> Result<(), DeliveryError> {
    let rendered = notice.render(locale, &settings.site_name);
    let url = app_url(settings, locale, &rendered.path, &[("n", key)]);
    let mut rows = vec![vec![crate::app_button(&rendered.button, url)]];
    if let Some((label, data)) = rendered.action {
        rows.push(vec![teloxide::types::InlineKeyboardButton::callback(label, data)]);
    }
    match bot.send_message(ChatId(chat_id), rendered.text).reply_markup(InlineKeyboardMarkup::new(rows)).await {
        Ok(_) => Ok(()),
        Err(e) => Err(classify(e)),
    }
}

/// Blocked-bot and deactivated-user answers (403) mean "never again"; the rest may pass later.
pub fn classify(e: RequestError) -> DeliveryError {
    use teloxide::ApiError;
    match e {
        RequestError::Api(
            ApiError::BotBlocked
            | ApiError::UserDeactivated
            | ApiError::CantInitiateConversation
            | ApiError::CantTalkWithBots
            | ApiError::ChatNotFound,
        ) => DeliveryError::Blocked,
        other => DeliveryError::Failed(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cashback_ready_carries_a_claim_button_in_the_players_language() {
        let notice = Notice::CashbackReady {
            cashback_id: 9,
            amount: "12.50".into(),
            currency: "USD".into(),
            title_en: "Weekly cashback".into(),
            title_fr: "Cashback hebdomadaire".into(),
            claim_until: None,
        };
        let fr = notice.render(Locale::Fr, "Croupier");
        assert_eq!(fr.action, Some(("Réclamer 12.50 USD".to_owned(), "cb:9".to_owned())));
        assert_eq!(fr.text, "Cashback hebdomadaire : 12.50 USD à réclamer.");
        assert_eq!(notice.render(Locale::En, "Croupier").action.map(|a| a.0).as_deref(), Some("Claim 12.50 USD"));
        assert!(notice.is_promotional());
        let paid =
            Notice::CashbackPaid { cashback_id: 9, amount: "12.50".into(), currency: "USD".into(), as_bonus: false };
        assert_eq!(paid.render(Locale::En, "Croupier").action, None);
        assert!(!paid.is_promotional(), "money moved: always told");
    }

    #[test]
    fn competition_notices_read_in_both_languages_and_open_their_page() {
        let prize = Notice::TournamentPrize {
            tournament_id: 4,
            title_en: "Spring Sprint".into(),
            title_fr: "Sprint de printemps".into(),
            rank: 1,
            prize: "money".into(),
            amount: Some("100.00".into()),
            currency: Some("USD".into()),
            points: None,
            spins: None,
        };
        let en = prize.render(Locale::En, "Croupier");
        assert_eq!(en.text, "You finished #1 in \u{201c}Spring Sprint\u{201d}: 100.00 USD is on your balance.");
        assert_eq!(en.path, "/tournaments/4");
        assert!(prize.render(Locale::Fr, "Croupier").text.contains("Sprint de printemps"));
        assert!(!prize.is_promotional(), "money moved: always told");
        let rank = Notice::TournamentRank {
            tournament_id: 4,
            title_en: "Spring Sprint".into(),
            title_fr: "Sprint de printemps".into(),
            rank: 17,
            participants: 230,
        };
        assert_eq!(
            rank.render(Locale::En, "Croupier").text,
            "\u{201c}Spring Sprint\u{201d} is over: you finished #17 of 230."
        );
        assert!(rank.is_promotional());
        let jackpot = Notice::JackpotWon {
            pool_id: 2,
            amount: "1234.56".into(),
            currency: "EUR".into(),
            title_en: "Mega Pot".into(),
            title_fr: "Méga Pot".into(),
        };
        assert_eq!(
            jackpot.render(Locale::Fr, "Croupier").text,
            "Jackpot ! Vous avez gagné Méga Pot : 1234.56 EUR sont sur votre solde."
        );
        for n in [&prize, &rank, &jackpot] {
            let back: Notice = serde_json::from_str(&serde_json::to_string(n).unwrap()).unwrap();
            assert_eq!(&back, n);
        }
    }

    #[test]
    fn the_club_notices_read_in_both_languages_and_open_the_club() {
        let level = Notice::LoyaltyLevel {
            level: 2,
            title_en: "Silver".into(),
            title_fr: "Argent".into(),
            reward: Some("10.00".into()),
            currency: Some("USD".into()),
        };
        let en = level.render(Locale::En, "Croupier");
        assert_eq!(en.text, "You reached level 2, Silver! Your reward of 10.00 USD is on your bonus balance.");
        assert_eq!(en.path, "/loyalty");
        assert_eq!(
            level.render(Locale::Fr, "Croupier").text,
            "Vous avez atteint le niveau 2, Argent ! Votre récompense de 10.00 USD est sur votre solde bonus."
        );
        let quest = Notice::QuestCompleted {
            quest_id: 1,
            title_en: "Fill in your profile".into(),
            title_fr: "Complétez votre profil".into(),
            points: 50,
        };
        assert_eq!(
            quest.render(Locale::En, "Croupier").text,
            "Quest completed: \u{201c}Fill in your profile\u{201d}. 50 points are yours."
        );
        let bought = Notice::ProductBought {
            purchase_id: 3,
            title_en: "20 free spins".into(),
            title_fr: "20 tours gratuits".into(),
            price: 150,
        };
        let fr = bought.render(Locale::Fr, "Croupier");
        assert_eq!(
            fr.text,
            "Vous avez acheté \u{ab}\u{a0}20 tours gratuits\u{a0}\u{bb} pour 150 points. Profitez-en !"
        );
        assert_eq!(fr.path, "/loyalty/shop");
        let summary = Notice::WeeklySummary {
            points: 120,
            lifetime_points: 900,
            level: 1,
            level_title_en: "Bronze".into(),
            level_title_fr: "Bronze".into(),
            next_level_points: Some(1000),
            cashback: Some("4.20".into()),
            currency: Some("EUR".into()),
        };
        assert_eq!(
            summary.render(Locale::En, "Croupier").text,
            "Your week: 120 points to spend, level 1 (Bronze). 100 points to the next level. Cashback of the week: 4.20 EUR."
        );
        assert_eq!(
            summary.render(Locale::Fr, "Croupier").text,
            "Votre semaine : 120 points à dépenser, niveau 1 (Bronze). Encore 100 points avant le niveau suivant. Cashback de la semaine : 4.20 EUR."
        );
        for n in [&level, &quest, &bought, &summary] {
            assert!(n.is_promotional());
            let back: Notice = serde_json::from_str(&serde_json::to_string(n).unwrap()).unwrap();
            assert_eq!(&back, n);
        }
    }
}
