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
            "/start opens the casino.\n/play opens the games.\n/language en or /language fr changes my language.\n/help shows this message."
        }
        Locale::Fr => {
            "/start ouvre le casino.\n/play ouvre les jeux.\n/language en ou /language fr change ma langue.\n/help affiche ce message."
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

/// The command list Telegram shows (`setMyCommands`).
pub fn commands(locale: Locale) -> [(&'static str, &'static str); 4] {
    match locale {
        Locale::En => [
            ("start", "Open the casino"),
            ("play", "Open the games"),
            ("language", "Change the language"),
            ("help", "What this bot can do"),
        ],
        Locale::Fr => [
            ("start", "Ouvrir le casino"),
            ("play", "Ouvrir les jeux"),
            ("language", "Changer de langue"),
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
