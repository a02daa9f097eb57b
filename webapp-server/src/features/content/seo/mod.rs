//! SEO from content: which paths are pages of the site (SPEC §2's route table plus content pages),
//! the SEO data of a page (`metadata.get`, and the `<head>` the server renders), content-defined
//! redirects, `robots.txt` and `sitemap.xml`.
//!
//! # Where a page's SEO comes from (first wins)
//!
//! 1. on the home page only, the `domain-seo` entry of the request's host (mirrors and
//!    satellite domains get their own home title, description and text);
//! 2. the `page-seo` entry whose `url` is the path without its locale prefix — exactly (ignoring
//!    ASCII case and a trailing slash), else a pattern like `/game/{name}` whose `{…}` segments
//!    take the path's segment (the value is offered to the texts as `{name}`, prettified:
//!    `book-of-dead` → `Book Of Dead`, and as `{name:raw}`);
//! 3. for a content page (`/{slug}`), the page's own `seo` component and title, and an Article;
//! 4. `settings-seo`: default title and description, the Open Graph image, and — on the home
//!    page — the organization and product.
//!
//! Robots: a path matched by a `Disallow` rule of `settings-seo.robots` (robots.txt semantics:
//! prefix match, `*` wildcard, `$` end, the longest matching rule wins, `Allow` on a tie) is
//! `noindex, follow`; otherwise the page's own `robots`, a host's `robots` (a mirror may say
//! `noindex, follow` everywhere), or `index, follow`. Unknown pages are `noindex, follow`.
//!
//! Canonical: `settings-seo.canonical.baseUrl` (else `CROUPIER_PUBLIC_URL`), the locale prefix,
//! and the path with the platform segment (`canonical.platformSegment`, default `platform`) put
//! before game paths (`/game/x` → `/platform/game/x`, SPEC §9), the route's own spelling (fixed
//! segments in lower case), no trailing slash, no query.
//! Mirrors point their canonical at the main base. `hreflang` alternates name the canonical
//! path in en (no prefix), fr (`/fr`) and `x-default` (en).
//!
//! Texts get `settings-seo.replacements` (`{from, to}` pairs, e.g. `{bonus}`) and the built-in
//! `{site}` (`CROUPIER_SITE_NAME`), `{year}` and the path's pattern values, in that order.

mod head;
mod robots;
#[cfg(test)]
mod tests;

pub use head::*;
pub use robots::*;

use super::store::{DEFAULT_LOCALE, Snapshot};
use crate::config::Config;
use croupier_shared::Locale;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

/// SPEC §2's route table without the locale prefix. `{x}` is one segment, a trailing `*` one or
/// more. `/{slug}` (content pages) is matched apart, after these.
const ROUTES: &[&str] = &[
    "/",
    "/betting",
    "/cashier",
    "/cashier/billing",
    "/cashier/deposit",
    "/cashier/deposit/{sysname}",
    "/cashier/history",
    "/cashier/paysuccess",
    "/cashier/paysuccess/{transaction}",
    "/cashier/payfail",
    "/cashier/payfail/{transaction}",
    "/cashier/paypending",
    "/cashier/paypending/{transaction}",
    "/cashier/paycancel",
    "/cashier/paymobile",
    "/cashier/paynewwindow",
    "/cashier/receipt",
    "/cashier/wallet",
    "/cashier/withdraw",
    "/confirmation",
    "/confirmation/success",
    "/forms/sign_in",
    "/forms/sign_up",
    "/game/{sysname}",
    "/gamehall",
    "/gamehall/{id}",
    "/jackpots",
    "/jackpots/{id}",
    "/loyalty",
    "/loyalty/shop",
    "/loyalty/{sysname}",
    "/offers",
    "/offers/{id}",
    "/profile",
    "/profile/settings",
    "/profile/security",
    "/profile/verification",
    "/profile/responsible-game",
    "/profile/bets",
    "/profile/loyalty",
    "/profile/bonuses",
    "/profile/cashback",
    "/profile/notification",
    "/promotions",
    "/promotions/{id}",
    "/providers",
    "/support",
    "/tournaments",
    "/tournaments/{id}",
    "/tournaments/{id}/gamehall",
    "/unsubscribe",
    "/winners",
    "/_icons",
    "/responsible-game",
    // The game launch page (DESIGN.md): a page of the site until the games feature serves it.
    "/platform/game/*",
];

/// Routes that exist without the locale prefix only (SPEC §2's placeholder `/bets/{anything}`).
const UNPREFIXED_ROUTES: &[&str] = &["/bets/*"];

/// First path segments the server itself answers, which a content page cannot take.
const SERVER_SEGMENTS: &[&str] = &[
    "api", "cms", "assets", "builds", "uploads", "oauth", "hit", "webhooks", "provider", "sandbox", "dev", "admin",
    "games", "bets", "fr", "en",
];

/// Whether `slug` is the first segment of a route or a server path (content pages cannot use it).
pub fn is_route_segment(slug: &str) -> bool {
    SERVER_SEGMENTS.iter().any(|s| s.eq_ignore_ascii_case(slug))
        || ROUTES.iter().chain(UNPREFIXED_ROUTES).any(|route| {
            route.trim_start_matches('/').split('/').next().is_some_and(|first| first.eq_ignore_ascii_case(slug))
        })
}

/// Whether `path` starts with a locale prefix other than the default (`/fr`, `/fr/…`).
pub fn has_locale_prefix(path: &str) -> bool {
    Locale::from_path(path) != Locale::En
}

/// `/fr/gamehall/` → (fr, `/gamehall`); `/` → (en, `/`). Trailing slashes go; the rest stays.
pub fn split_locale(path: &str) -> (Locale, String) {
    let locale = Locale::from_path(path);
    let rest = if locale == Locale::En {
        path
    } else {
        let trimmed = path.trim_start_matches('/');
        trimmed.get(locale.code().len()..).unwrap_or("")
    };
    let rest = rest.trim_end_matches('/');
    let rest = if rest.is_empty() {
        "/".to_owned()
    } else if rest.starts_with('/') {
        rest.to_owned()
    } else {
        format!("/{rest}")
    };
    (locale, rest)
}

/// The locale prefix of `locale` (`""` for the default).
pub fn prefix(locale: Locale) -> String {
    if locale == Locale::En { String::new() } else { format!("/{}", locale.code()) }
}

/// Matches `path` against a route pattern, ignoring ASCII case in fixed segments; answers the
/// `{…}` values.
fn match_pattern(pattern: &str, path: &str) -> Option<Vec<(String, String)>> {
    let mut params = Vec::new();
    let pattern_segments: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
    let path_segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    for (i, segment) in pattern_segments.iter().enumerate() {
        if *segment == "*" {
            let rest = path_segments.get(i..).filter(|rest| rest.iter().any(|s| !s.is_empty()))?;
            params.push(("*".to_owned(), rest.join("/")));
            return Some(params);
        }
        let actual = path_segments.get(i)?;
        if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            if actual.is_empty() {
                return None;
            }
            params.push((name.to_owned(), (*actual).to_owned()));
        } else if !segment.eq_ignore_ascii_case(actual) {
            return None;
        }
    }
    (path_segments.len() == pattern_segments.len()).then_some(params)
}

/// A route pattern with its parameters filled in.
fn spell(pattern: &str, params: &[(String, String)]) -> String {
    let value = |name: &str| params.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v.as_str());
    let segments: Vec<&str> = pattern
        .trim_start_matches('/')
        .split('/')
        .map(|segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) => value(name),
            None if segment == "*" => value("*"),
            None => segment,
        })
        .collect();
    format!("/{}", segments.join("/"))
}

/// What a path is.
#[derive(Debug, Clone, PartialEq)]
pub enum Page<'a> {
    /// A route of SPEC §2's table.
    Route { pattern: &'static str, params: Vec<(String, String)> },
    /// A content page (`page` entry).
    Content(&'a Value),
}

/// The page at `rest` (a path without its locale prefix) in `locale`, if the site has one.
pub fn find_page<'a>(snapshot: &'a Snapshot, locale: Locale, rest: &str) -> Option<Page<'a>> {
    let unprefixed: &[&'static str] = if locale == Locale::En { UNPREFIXED_ROUTES } else { &[] };
    for pattern in ROUTES.iter().chain(unprefixed) {
        if let Some(params) = match_pattern(pattern, rest) {
            return Some(Page::Route { pattern, params });
        }
    }
    let slug = rest.strip_prefix('/').filter(|s| !s.contains('/'))?;
    snapshot.collection("page", locale.code()).into_iter().find(|p| str_of(p, "slug") == Some(slug)).map(Page::Content)
}
