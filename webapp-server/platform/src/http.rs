//! Small HTTP helpers that several features need: HTML escaping for server-rendered pages and
//! reading the request's cookies (the session's and the language the player chose).

use axum::http::{HeaderMap, header};
use croupier_shared::Locale;

/// Escapes text for an HTML text node or a double-quoted attribute.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A cookie's value from the request's `Cookie` header.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get(header::COOKIE).and_then(|v| v.to_str().ok()).and_then(|c| {
        c.split(';').filter_map(|p| p.trim().split_once('=')).find(|(k, _)| *k == name).map(|(_, v)| v.to_owned())
    })
}

/// The language the player chose (`i18n_locale` cookie), when the request carries one.
pub fn cookie_locale(headers: &HeaderMap) -> Option<Locale> {
    cookie(headers, "i18n_locale").and_then(|v| Locale::parse(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_would_break_out_of_text_or_an_attribute() {
        assert_eq!(escape_html(r#"<a href="x">&</a>"#), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
    }

    #[test]
    fn reads_the_locale_cookie_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, "a=1; i18n_locale=fr; b=2".parse().unwrap());
        assert_eq!(cookie(&headers, "b").as_deref(), Some("2"));
        assert_eq!(cookie_locale(&headers), Some(Locale::Fr));
        headers.insert(header::COOKIE, "i18n_locale=xx".parse().unwrap());
        assert_eq!(cookie_locale(&headers), None);
        assert_eq!(cookie(&HeaderMap::new(), "a"), None);
    }
}
