//! Everything the bot says, in English and French. A player's language is the one they chose with
//! `/language` or on the site (the server knows it), else Telegram's `language_code`.

use croupier_shared::Locale;

/// The welcome of `/start`; `promo` is the deep link's promo code, if it carries one.
pub fn welcome(locale: Locale, site: &str, promo: Option<&str>) -> String {
    let mut text = match locale {
        Locale::En => format!("Welcome to {site}! Tap the button to open the casino."),
        Locale::Fr => format!("Bienvenue chez {site} ! Touchez le bouton pour ouvrir le casino."),
    };
    if let Some(code) = promo {
        text.push_str("\n\n");
        text.push_str(&match locale {
            Locale::En => format!("Your promo code {code} is applied when you sign up."),
            Locale::Fr => format!("Votre code promo {code} est appliqué à l'inscription."),
        });
    }
    text
}

pub fn play(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "Your games are one tap away.",
        Locale::Fr => "Vos jeux sont à portée de doigt.",
    }
}

pub fn help(locale: Locale) -> &'static str {
    match locale {
        Locale::En => {
            "/start opens the casino.\n/play opens the games.\n/language en or /language fr changes my language.\n/summary on or /summary off starts or stops your weekly club summary.\n/help shows this message."
        }
        Locale::Fr => {
            "/start ouvre le casino.\n/play ouvre les jeux.\n/language en ou /language fr change ma langue.\n/summary on ou /summary off active ou arrête votre résumé hebdomadaire du club.\n/help affiche ce message."
        }
    }
}

/// `/language` without an argument: the current language and how to change it.
pub fn language_current(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "I speak English with you. To change: /language fr (français) or /language en (English).",
        Locale::Fr => "Je vous parle en français. Pour changer : /language en (English) ou /language fr (français).",
    }
}

/// `/language xx` done, said in the new language.
pub fn language_set(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "Done: I will speak English with you.",
        Locale::Fr => "C'est fait : je vous parlerai en français.",
    }
}

pub fn language_unknown(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "I do not know that language. Choose /language en or /language fr.",
        Locale::Fr => "Je ne connais pas cette langue. Choisissez /language en ou /language fr.",
    }
}

/// The label of the button that opens the mini-app (also the chat's menu button).
pub fn open_casino(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "Open the casino",
        Locale::Fr => "Ouvrir le casino",
    }
}

pub fn open_games(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "Play",
        Locale::Fr => "Jouer",
    }
}

/// `/summary on|off`: done, or how to use it, or the account is not linked.
pub fn summary(locale: Locale, on: Option<bool>, linked: bool) -> &'static str {
    match (locale, on, linked) {
        (Locale::En, None, _) => {
            "Send /summary on for a weekly summary of your points, level and cashback, /summary off to stop it."
        }
        (Locale::Fr, None, _) => {
            "Envoyez /summary on pour recevoir chaque semaine le résumé de vos points, niveau et cashback, /summary off pour l'arrêter."
        }
        (Locale::En, Some(_), false) => {
            "Link Telegram to your casino account first (Profile, Security), then try again."
        }
        (Locale::Fr, Some(_), false) => "Reliez d'abord Telegram à votre compte (Profil, Sécurité), puis réessayez.",
        (Locale::En, Some(true), true) => "Done: you will get your club summary every week.",
        (Locale::Fr, Some(true), true) => "C'est fait : vous recevrez votre résumé du club chaque semaine.",
        (Locale::En, Some(false), true) => "Done: no more weekly summary.",
        (Locale::Fr, Some(false), true) => "C'est fait : plus de résumé hebdomadaire.",
    }
}

/// The label of a cashback notice's claim button.
pub fn claim_button(locale: Locale, amount: &str, currency: &str) -> String {
    match locale {
        Locale::En => format!("Claim {amount} {currency}"),
        Locale::Fr => format!("Réclamer {amount} {currency}"),
    }
}

/// A claim that could not reach the server.
pub fn claim_failed(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "Something went wrong. Please try again in a moment.",
        Locale::Fr => "Un problème est survenu. Réessayez dans un instant.",
    }
}

/// What a claim button's press did, said in the chat.
pub fn claimed(locale: Locale, outcome: crate::ClaimOutcome, amount: &str, currency: &str, as_bonus: bool) -> String {
    use crate::ClaimOutcome::*;
    match (locale, outcome, as_bonus) {
        (Locale::En, Paid, false) => format!("Your cashback of {amount} {currency} is on your balance."),
        (Locale::Fr, Paid, false) => format!("Votre cashback de {amount} {currency} est sur votre solde."),
        (Locale::En, Paid, true) => format!("Your cashback of {amount} {currency} is on your bonus balance."),
        (Locale::Fr, Paid, true) => format!("Votre cashback de {amount} {currency} est sur votre solde bonus."),
        (Locale::En, AlreadyPaid, _) => "This cashback is already paid.".to_owned(),
        (Locale::Fr, AlreadyPaid, _) => "Ce cashback est déjà versé.".to_owned(),
        (Locale::En, Expired, _) => "This cashback can no longer be claimed.".to_owned(),
        (Locale::Fr, Expired, _) => "Ce cashback ne peut plus être réclamé.".to_owned(),
        (Locale::En, Unavailable, _) => {
            "This cashback cannot be claimed here. Open the casino to see your cashbacks.".to_owned()
        }
        (Locale::Fr, Unavailable, _) => {
            "Ce cashback ne peut pas être réclamé ici. Ouvrez le casino pour voir vos cashbacks.".to_owned()
        }
    }
}

/// The command list Telegram shows (`setMyCommands`).
pub fn commands(locale: Locale) -> [(&'static str, &'static str); 5] {
    match locale {
        Locale::En => [
            ("start", "Open the casino"),
            ("play", "Open the games"),
            ("language", "Change the language"),
            ("summary", "Weekly club summary on or off"),
            ("help", "What this bot can do"),
        ],
        Locale::Fr => [
            ("start", "Ouvrir le casino"),
            ("play", "Ouvrir les jeux"),
            ("language", "Changer de langue"),
            ("summary", "Résumé hebdomadaire du club"),
            ("help", "Ce que fait ce bot"),
        ],
    }
}

/// A moment (Unix seconds) as players read it, in UTC: "24 Nov 2026, 18:00 UTC" or
/// "24/11/2026 18:00 UTC".
pub fn date(locale: Locale, unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let (hour, minute) = (secs / 3_600, secs % 3_600 / 60);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    match locale {
        Locale::Fr => format!("{day:02}/{month:02}/{year} {hour:02}:{minute:02} UTC"),
        Locale::En => {
            const MONTHS: [&str; 12] =
                ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
            let name = MONTHS[usize::try_from(month - 1).unwrap_or(0)];
            format!("{day} {name} {year}, {hour:02}:{minute:02} UTC")
        }
    }
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn dates_read_in_both_languages() {
        // 2026-11-24 18:05:00 UTC.
        assert_eq!(date(Locale::En, 1_795_543_500), "24 Nov 2026, 18:05 UTC");
        assert_eq!(date(Locale::Fr, 1_795_543_500), "24/11/2026 18:05 UTC");
        assert_eq!(date(Locale::En, 951_782_400), "29 Feb 2000, 00:00 UTC");
        assert_eq!(date(Locale::En, 0), "1 Jan 1970, 00:00 UTC");
    }
}
