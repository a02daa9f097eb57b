//! The site's two languages (SPEC §1, §9): English is the default and has no path prefix,
//! French lives under `/fr`.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Locale {
    #[default]
    En,
    Fr,
}

impl Locale {
    pub const ALL: [Locale; 2] = [Locale::En, Locale::Fr];

    pub fn code(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Fr => "fr",
        }
    }

    /// Parses a locale code strictly (`en`, `fr`, case-insensitive); `None` for anything else.
    pub fn parse(code: &str) -> Option<Locale> {
        if code.eq_ignore_ascii_case("en") {
            Some(Locale::En)
        } else if code.eq_ignore_ascii_case("fr") {
            Some(Locale::Fr)
        } else {
            None
        }
    }

    /// The API's rule: an unknown or missing locale falls back to English.
    pub fn parse_or_default(code: Option<&str>) -> Locale {
        code.and_then(Locale::parse).unwrap_or_default()
    }

    /// The locale a site path belongs to: `/fr` and `/fr/...` are French, everything else English.
    pub fn from_path(path: &str) -> Locale {
        let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
        if first.eq_ignore_ascii_case("fr") { Locale::Fr } else { Locale::En }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_locales_fall_back_to_english() {
        assert_eq!(Locale::parse_or_default(Some("de")), Locale::En);
        assert_eq!(Locale::parse_or_default(None), Locale::En);
        assert_eq!(Locale::parse_or_default(Some("FR")), Locale::Fr);
    }

    #[test]
    fn french_paths_are_those_under_the_fr_prefix() {
        assert_eq!(Locale::from_path("/fr"), Locale::Fr);
        assert_eq!(Locale::from_path("/fr/gamehall"), Locale::Fr);
        assert_eq!(Locale::from_path("/FR/"), Locale::Fr);
        assert_eq!(Locale::from_path("/france"), Locale::En);
        assert_eq!(Locale::from_path("/"), Locale::En);
        assert_eq!(Locale::from_path("/gamehall/fr"), Locale::En);
    }
}
