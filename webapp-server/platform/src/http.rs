//! Small HTTP helpers that several features need: HTML escaping for server-rendered pages,
//! reading the request's cookies (the session's and the language the player chose), and CSV
//! fields for downloads (a player's game history, the back office's exports).

use axum::http::{HeaderMap, header};
use croupier_shared::Locale;

/// Escapes text for an HTML text node or a double-quoted attribute.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A cookie's value from the request's `Cookie` headers (HTTP/2 may split them over several);
/// an empty value counts as absent.
pub fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
        .filter(|v| !v.is_empty())
}

/// The language the player chose (`i18n_locale` cookie), when the request carries one.
pub fn cookie_locale(headers: &HeaderMap) -> Option<Locale> {
    cookie(headers, "i18n_locale").and_then(Locale::parse)
}

/// One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. A text a
/// spreadsheet would run as a formula (a leading `=`, `+`, `-` or `@` that is not a whole number)
/// is kept as text behind an apostrophe: exports hold values players and providers chose.
pub fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) && text.parse::<i64>().is_err() {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

/// One CSV line of `fields`, each through [`csv_field`], ended with CRLF (RFC 4180).
pub fn csv_line<S: AsRef<str>>(fields: impl IntoIterator<Item = S>) -> String {
    let mut line = fields.into_iter().map(|f| csv_field(f.as_ref())).collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_and_never_formulas() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(csv_field("-1050"), "-1050");
        assert_eq!(csv_line(["1", "a,b", "@x"]), "1,\"a,b\",'@x\r\n");
    }

    #[test]
    fn escapes_what_would_break_out_of_text_or_an_attribute() {
        assert_eq!(escape_html(r#"<a href="x">&</a>"#), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
    }

    #[test]
    fn reads_the_locale_cookie_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, "a=1; i18n_locale=fr; b=2".parse().unwrap());
        assert_eq!(cookie(&headers, "b"), Some("2"));
        assert_eq!(cookie_locale(&headers), Some(Locale::Fr));
        headers.insert(header::COOKIE, "i18n_locale=xx".parse().unwrap());
        assert_eq!(cookie_locale(&headers), None);
        assert_eq!(cookie(&HeaderMap::new(), "a"), None);
        let mut split = HeaderMap::new();
        split.append(header::COOKIE, "a=1; empty=".parse().unwrap());
        split.append(header::COOKIE, "b=2".parse().unwrap());
        assert_eq!(cookie(&split, "b"), Some("2"), "a second Cookie header is read too");
        assert_eq!(cookie(&split, "empty"), None);
    }
}
