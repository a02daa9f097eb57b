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

// ---------------------------------------------------------------------------------------------
// Patterns: redirects and robots rules
// ---------------------------------------------------------------------------------------------

/// Matches `text` against a pattern whose `*` matches any run of characters, ignoring ASCII
/// case; answers what each `*` matched. Leftmost placement of each literal part is correct for
/// `*`-only patterns and takes O(len × parts).
fn glob(pattern: &str, text: &str, anchored_end: bool) -> Option<Vec<String>> {
    let pattern = pattern.to_ascii_lowercase();
    let lower = text.to_ascii_lowercase();
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, rest) = parts.split_first()?;
    if !lower.starts_with(first) {
        return None;
    }
    let mut at = first.len();
    let mut captures = Vec::new();
    let Some((last, middle)) = rest.split_last() else {
        return (!anchored_end || at == lower.len()).then_some(captures);
    };
    for part in middle {
        let found = lower.get(at..)?.find(part)?;
        captures.push(text.get(at..at + found)?.to_owned());
        at += found + part.len();
    }
    if !anchored_end {
        let found = lower.get(at..)?.find(last)?;
        captures.push(text.get(at..at + found)?.to_owned());
        return Some(captures);
    }
    if lower.len() < at + last.len() || !lower.ends_with(last) {
        return None;
    }
    captures.push(text.get(at..lower.len() - last.len())?.to_owned());
    Some(captures)
}

/// Where a content-defined redirect sends `path` (with its `query`), if one applies. A rule is
/// tried against the whole path, then — for a French path — against the path without `/fr`,
/// in which case an internal target gets `/fr` back. `*` in `to_url` takes what the `*`s of
/// `from_url` matched, in order. The request's query is kept unless either URL has its own.
pub fn redirect_for(snapshot: &Snapshot, path: &str, query: Option<&str>) -> Option<String> {
    let rules = snapshot.collection("redirect", "");
    let normalised = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    let normalised = if normalised.is_empty() { "/" } else { normalised };
    let (locale, rest) = split_locale(path);
    let mut candidates = vec![(normalised.to_owned(), false)];
    if locale != Locale::En {
        candidates.push((rest, true));
    }
    for (candidate, relocalise) in candidates {
        for rule in &rules {
            let (Some(from), Some(to)) = (str_of(rule, "from_url"), str_of(rule, "to_url")) else { continue };
            let from_trimmed = if from.len() > 1 { from.trim_end_matches('/') } else { from };
            let (subject, query_used) = match (from.contains('?'), query) {
                (true, Some(q)) => (format!("{candidate}?{q}"), true),
                (true, None) => continue,
                (false, _) => (candidate.clone(), false),
            };
            let Some(captures) = glob(from_trimmed, &subject, true) else { continue };
            let mut target = String::new();
            let mut captured = captures.iter();
            for (i, piece) in to.split('*').enumerate() {
                if i > 0 {
                    target.push_str(captured.next().map_or("", String::as_str));
                }
                target.push_str(piece);
            }
            // A `*` capture must not turn an internal target into another host (`//evil.test`).
            if target.starts_with("//") || target.starts_with("/\\") {
                target = format!("/{}", target.trim_start_matches(['/', '\\']));
            }
            let internal = target.starts_with('/');
            if relocalise && internal {
                target = format!("{}{}", prefix(locale), if target == "/" { "" } else { target.as_str() });
            }
            if !query_used
                && !target.contains('?')
                && let Some(q) = query.filter(|q| !q.is_empty())
            {
                target = format!("{target}?{q}");
            }
            if internal && target.split('?').next() == Some(path) {
                continue;
            }
            return Some(target);
        }
    }
    None
}

/// One `User-agent` group of `settings-seo.robots`.
struct RobotsGroup {
    agents: Vec<String>,
    allow: Vec<String>,
    disallow: Vec<String>,
}

fn robots_groups(snapshot: &Snapshot) -> Vec<RobotsGroup> {
    let Some(settings) = snapshot.single("settings-seo", DEFAULT_LOCALE) else { return Vec::new() };
    let strings = |v: Option<&Value>| -> Vec<String> {
        match v {
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            Some(Value::String(s)) => s.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect(),
            _ => Vec::new(),
        }
    };
    settings
        .get("robots")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|group| {
            let agents = strings(group.get("userAgent"));
            RobotsGroup {
                agents: if agents.is_empty() { vec!["*".to_owned()] } else { agents },
                allow: strings(group.get("allow")),
                disallow: strings(group.get("disallow")),
            }
        })
        .collect()
}

/// Whether the rules for every crawler (`User-agent: *`) keep crawlers away from `path`.
pub fn is_disallowed(snapshot: &Snapshot, path: &str) -> bool {
    let groups = robots_groups(snapshot);
    let mut best: Option<(usize, bool)> = None;
    for group in groups.iter().filter(|g| g.agents.iter().any(|a| a == "*")) {
        for (rules, allowed) in [(&group.allow, true), (&group.disallow, false)] {
            for rule in rules.iter().filter(|r| !r.is_empty()) {
                let (pattern, anchored) = match rule.strip_suffix('$') {
                    Some(p) => (p, true),
                    None => (rule.as_str(), false),
                };
                if glob(pattern, path, anchored).is_some() {
                    let better = match best {
                        None => true,
                        Some((len, was_allowed)) => rule.len() > len || (rule.len() == len && allowed && !was_allowed),
                    };
                    if better {
                        best = Some((rule.len(), allowed));
                    }
                }
            }
        }
    }
    best.is_some_and(|(_, allowed)| !allowed)
}

/// `/robots.txt` from `settings-seo.robots`, with the sitemap's address.
pub fn robots_txt(snapshot: &Snapshot, config: &Config) -> String {
    let mut out = String::new();
    let groups = robots_groups(snapshot);
    if groups.is_empty() {
        out.push_str("User-agent: *\nAllow: /\n");
    }
    for group in groups {
        for agent in &group.agents {
            out.push_str(&format!("User-agent: {agent}\n"));
        }
        for rule in &group.disallow {
            out.push_str(&format!("Disallow: {rule}\n"));
        }
        for rule in &group.allow {
            out.push_str(&format!("Allow: {rule}\n"));
        }
        out.push('\n');
    }
    out.push_str(&format!("Sitemap: {}/sitemap.xml\n", base_url(snapshot, config)));
    out
}

/// `/sitemap.xml`: every route without parameters and every content page, in both locales,
/// except what robots rules keep crawlers from; each with its `hreflang` alternates.
pub fn sitemap_xml(snapshot: &Snapshot, config: &Config) -> String {
    let base = base_url(snapshot, config);
    let mut paths: Vec<(String, Option<String>)> =
        ROUTES.iter().filter(|r| !r.contains(['{', '*'])).map(|r| ((*r).to_owned(), None)).collect();
    for page in snapshot.collection("page", DEFAULT_LOCALE) {
        if let Some(slug) = str_of(page, "slug") {
            let modified = str_of(page, "updatedAt").and_then(|at| at.get(..10)).map(str::to_owned);
            paths.push((format!("/{slug}"), modified));
        }
    }
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for (rest, modified) in &paths {
        let alternates: String = Locale::ALL
            .iter()
            .map(|l| {
                format!(
                    "<xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>",
                    l.code(),
                    esc(&localized_url(&base, *l, rest))
                )
            })
            .collect();
        for locale in Locale::ALL {
            let full = localized_path(locale, rest);
            if is_disallowed(snapshot, &full) {
                continue;
            }
            out.push_str(&format!("<url><loc>{}</loc>", esc(&localized_url(&base, locale, rest))));
            if let Some(modified) = modified {
                out.push_str(&format!("<lastmod>{modified}</lastmod>"));
            }
            out.push_str(&alternates);
            out.push_str("</url>\n");
        }
    }
    out.push_str("</urlset>\n");
    out
}

fn esc(text: &str) -> String {
    croupier_platform::http::escape_html(text)
}

/// `/fr` + `/gamehall`, or `/fr` for the French home.
pub fn localized_path(locale: Locale, rest: &str) -> String {
    match (prefix(locale), rest) {
        (p, "/") if !p.is_empty() => p,
        (p, rest) => format!("{p}{rest}"),
    }
}

/// An absolute URL without a trailing slash (the English home is the bare base).
fn localized_url(base: &str, locale: Locale, rest: &str) -> String {
    let path = localized_path(locale, rest);
    if path == "/" { base.to_owned() } else { format!("{base}{path}") }
}

fn base_url(snapshot: &Snapshot, config: &Config) -> String {
    snapshot
        .single("settings-seo", DEFAULT_LOCALE)
        .and_then(|s| s.get("canonical"))
        .and_then(|c| str_of(c, "baseUrl"))
        .unwrap_or(&config.public_url)
        .trim_end_matches('/')
        .to_owned()
}

// ---------------------------------------------------------------------------------------------
// SEO data
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Default, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct OpenGraph {
    pub title: String,
    pub description: String,
    /// `website`, or `article` for content pages.
    #[serde(rename = "type")]
    pub kind: String,
    pub url: Option<String>,
    pub image: Option<String>,
    pub site_name: String,
    /// `en_US` or `fr_FR`.
    pub locale: String,
}

/// A `<meta>` tag: `name` or `property`, and `content`.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct MetaTag {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub property: Option<String>,
    pub content: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Alternate {
    pub hreflang: String,
    pub href: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ContactPoint {
    pub telephone: Option<String>,
    pub contact_type: Option<String>,
    pub area_served: Vec<String>,
    pub available_language: Vec<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Organization {
    pub name: String,
    pub url: Option<String>,
    pub logo: Option<String>,
    pub contact_point: Option<ContactPoint>,
    pub same_as: Vec<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub name: String,
    pub image: Option<String>,
    pub description: Option<String>,
    pub sku: Option<String>,
    pub brand_name: Option<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Article {
    pub headline: String,
    pub description: Option<String>,
    pub image: Option<String>,
    pub date_published: Option<String>,
    pub date_modified: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Replacement {
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Favicon {
    pub rel: String,
    pub href: String,
    #[serde(rename = "type")]
    pub mime: Option<String>,
    pub sizes: Option<String>,
}

/// The SEO data of one page (SPEC §3 "SEO data"), replacements already applied.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SeoData {
    /// 200 for a page of the site, 404 for an unknown path.
    pub status: u16,
    pub locale: String,
    pub title: String,
    pub description: String,
    pub open_graph: OpenGraph,
    pub robots: String,
    /// Extra `<meta>` tags: the site's (`meta-data-tool`) then the page's.
    pub meta: Vec<MetaTag>,
    pub canonical: Option<String>,
    pub alternates: Vec<Alternate>,
    pub organization: Option<Organization>,
    pub product: Option<Product>,
    pub schema_faq: Vec<Faq>,
    pub schema_article: Option<Article>,
    /// The replacements that were applied, for texts the client renders itself.
    pub replacements: Vec<Replacement>,
    /// The page's SEO text block (HTML), if any.
    pub text: Option<String>,
    /// From the web setting.
    pub favicons: Vec<Favicon>,
}

/// Custom code entries of `common` (SPEC §3), by position.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CustomCode {
    pub head: Vec<String>,
    pub body_start: Vec<String>,
    pub body_end: Vec<String>,
}

pub fn str_of<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

fn string_of(value: Option<&Value>, key: &str) -> Option<String> {
    value.and_then(|v| str_of(v, key)).map(str::to_owned)
}

/// A media attribute's URL (storage form: the file object; a bare URL is accepted too).
fn media_url(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(url) if !url.is_empty() => Some(url.clone()),
        Value::Object(file) => file.get("url").and_then(Value::as_str).map(str::to_owned),
        Value::Array(files) => files.first().and_then(|f| media_url(Some(f))),
        _ => None,
    }
}

fn string_list(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|i| {
                i.as_str().map(str::to_owned).or_else(|| i.get("value").and_then(Value::as_str).map(str::to_owned))
            })
            .collect(),
        Some(Value::String(s)) if !s.is_empty() => vec![s.clone()],
        _ => Vec::new(),
    }
}

fn organization(value: Option<&Value>) -> Option<Organization> {
    let value = value.filter(|v| v.is_object())?;
    let contact = value.get("contactPoint").filter(|c| c.is_object()).map(|c| ContactPoint {
        telephone: string_of(Some(c), "telephone"),
        contact_type: string_of(Some(c), "contactType"),
        area_served: string_list(c.get("areaServed")),
        available_language: string_list(c.get("availableLanguage")),
    });
    Some(Organization {
        name: string_of(Some(value), "name")?,
        url: string_of(Some(value), "url"),
        logo: media_url(value.get("logo")),
        contact_point: contact,
        same_as: string_list(value.get("sameAs")),
    })
}

fn product(value: Option<&Value>) -> Option<Product> {
    let value = value.filter(|v| v.is_object())?;
    Some(Product {
        name: string_of(Some(value), "name")?,
        image: media_url(value.get("image")),
        description: string_of(Some(value), "description"),
        sku: string_of(Some(value), "sku"),
        brand_name: string_of(Some(value), "brandName"),
    })
}

fn article(value: Option<&Value>) -> Option<Article> {
    let value = value.filter(|v| v.is_object())?;
    Some(Article {
        headline: string_of(Some(value), "headline")?,
        description: string_of(Some(value), "description"),
        image: media_url(value.get("image")),
        date_published: string_of(Some(value), "datePublished"),
        date_modified: string_of(Some(value), "dateModified"),
    })
}

fn meta_tags(value: Option<&Value>) -> Vec<MetaTag> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let content = string_of(Some(m), "content")?;
            let (name, property) = (string_of(Some(m), "name"), string_of(Some(m), "property"));
            (name.is_some() || property.is_some()).then_some(MetaTag { name, property, content })
        })
        .collect()
}

/// `book-of-dead` → `Book Of Dead`.
fn prettify(value: &str) -> String {
    value
        .split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `page-seo` entry for `rest` (exact first, then patterns) and its pattern values.
fn page_seo<'a>(snapshot: &'a Snapshot, locale: Locale, rest: &str) -> Option<(&'a Value, Vec<(String, String)>)> {
    let entries = snapshot.collection("page-seo", locale.code());
    let url_of =
        |e: &Value| str_of(e, "url").map(|u| if u.len() > 1 { u.trim_end_matches('/') } else { u }).map(str::to_owned);
    if let Some(exact) =
        entries.iter().find(|e| url_of(e).is_some_and(|u| !u.contains('{') && u.eq_ignore_ascii_case(rest)))
    {
        return Some((exact, Vec::new()));
    }
    entries.iter().find_map(|e| {
        let url = url_of(e).filter(|u| u.contains('{'))?;
        match_pattern(&url, rest).map(|params| (*e, params))
    })
}

/// Everything the server needs to render a page's head.
#[derive(Debug, Clone)]
pub struct Head {
    pub seo: SeoData,
    pub custom_code: CustomCode,
}

/// The SEO data of `path` (with its locale prefix) for a request to `host`.
pub fn resolve<'a>(snapshot: &'a Snapshot, config: &Config, path: &str, host: Option<&str>) -> Head {
    let (locale, rest) = split_locale(path);
    let lang = locale.code();
    let full_path = localized_path(locale, &rest);
    let page = find_page(snapshot, locale, &rest);
    let settings = snapshot.single("settings-seo", lang);
    let is_home = rest == "/";
    let host = host.map(|h| h.to_ascii_lowercase());
    let domain = host
        .as_deref()
        .and_then(|host| snapshot.collection("domain-seo", lang).into_iter().find(|d| str_of(d, "host") == Some(host)));
    let page_entry = page.as_ref().and_then(|_| page_seo(snapshot, locale, &rest));
    let entry = page_entry.as_ref().map(|(e, _)| *e);
    let content = match &page {
        Some(Page::Content(doc)) => Some(*doc),
        _ => None,
    };
    let content_seo = content.and_then(|c| c.get("seo")).filter(|s| s.is_object());

    let mut values: Vec<(String, String)> = Vec::new();
    let params = match (&page_entry, &page) {
        (Some((_, params)), _) if !params.is_empty() => params.clone(),
        (_, Some(Page::Route { params, .. })) => params.clone(),
        _ => Vec::new(),
    };
    let mut replacements: Vec<Replacement> = settings
        .and_then(|s| s.get("replacements"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| {
            Some(Replacement {
                from: string_of(Some(r), "from")?,
                to: r.get("to").and_then(Value::as_str).unwrap_or("").to_owned(),
            })
        })
        .collect();
    replacements.push(Replacement { from: "{site}".into(), to: config.site_name.clone() });
    replacements
        .push(Replacement { from: "{year}".into(), to: super::store::iso8601(crate::db::now_ms())[..4].to_owned() });
    for (name, value) in params {
        values.push((format!("{{{name}:raw}}"), value.clone()));
        values.push((format!("{{{name}}}"), prettify(&value)));
    }
    replacements.extend(values.into_iter().map(|(from, to)| Replacement { from, to }));
    let apply = |text: &str| replacements.iter().fold(text.to_owned(), |acc, r| acc.replace(&r.from, &r.to));
    let apply_opt = |text: Option<String>| text.map(|t| apply(&t));

    let found = page.is_some();
    let pick = |key: &str, content_key: Option<&str>, home_domain: bool| -> Option<String> {
        let from_domain = if home_domain && is_home { string_of(domain, key) } else { None };
        from_domain.or_else(|| string_of(entry, key)).or_else(|| content_key.and_then(|k| string_of(content_seo, k)))
    };
    let (title, description) = if found {
        let title = pick("title", Some("metaTitle"), true)
            .or_else(|| content.and_then(|c| str_of(c, "title")).map(|t| format!("{t} | {{site}}")))
            .or_else(|| string_of(settings, "defaultTitle"))
            .unwrap_or_else(|| "{site}".to_owned());
        let description = pick("description", Some("metaDescription"), true)
            .or_else(|| string_of(settings, "defaultDescription"))
            .unwrap_or_default();
        (title, description)
    } else {
        let title = string_of(settings, "notFoundTitle").unwrap_or_else(|| "Page not found | {site}".to_owned());
        (title, string_of(settings, "defaultDescription").unwrap_or_default())
    };
    let (title, description) = (apply(&title), apply(&description));

    let robots = if !found || is_disallowed(snapshot, &full_path) {
        "noindex, follow".to_owned()
    } else {
        pick("robots", Some("robots"), false)
            .or_else(|| string_of(domain, "robots"))
            .unwrap_or_else(|| "index, follow".to_owned())
    };

    let base = base_url(snapshot, config);
    let platform = settings
        .and_then(|s| s.get("canonical"))
        .and_then(|c| str_of(c, "platformSegment"))
        .unwrap_or("platform")
        .trim_matches('/')
        .to_owned();
    // The route's own spelling (parameters as given), so `/GAME/x/` and `/game/x` share one URL.
    let spelled = match &page {
        Some(Page::Route { pattern, params }) => spell(pattern, params),
        Some(Page::Content(doc)) => format!("/{}", str_of(doc, "slug").unwrap_or_default()),
        None => rest.clone(),
    };
    let canonical_rest = if spelled.starts_with("/game/") { format!("/{platform}{spelled}") } else { spelled };
    let canonical = found.then(|| match string_of(entry, "canonical") {
        Some(explicit) if explicit.starts_with("http://") || explicit.starts_with("https://") => {
            explicit.trim_end_matches('/').to_owned()
        }
        Some(explicit) => localized_url(&base, locale, explicit.trim_end_matches('/')),
        None => localized_url(&base, locale, &canonical_rest),
    });
    let alternates = if found {
        let mut list: Vec<Alternate> = Locale::ALL
            .iter()
            .map(|l| Alternate { hreflang: l.code().to_owned(), href: localized_url(&base, *l, &canonical_rest) })
            .collect();
        list.push(Alternate { hreflang: "x-default".into(), href: localized_url(&base, Locale::En, &canonical_rest) });
        list
    } else {
        Vec::new()
    };

    let og = entry.and_then(|e| e.get("openGraph")).filter(|o| o.is_object());
    let is_article = content.is_some();
    let open_graph = OpenGraph {
        title: apply_opt(string_of(og, "title")).unwrap_or_else(|| title.clone()),
        description: apply_opt(string_of(og, "description")).unwrap_or_else(|| description.clone()),
        kind: string_of(og, "type").unwrap_or_else(|| if is_article { "article" } else { "website" }.to_owned()),
        url: canonical.clone(),
        image: media_url(og.and_then(|o| o.get("image")))
            .or_else(|| media_url(content_seo.and_then(|s| s.get("metaImage"))))
            .or_else(|| media_url(content.and_then(|c| c.get("cover"))))
            .or_else(|| media_url(settings.and_then(|s| s.get("ogImage"))))
            .map(|url| absolute(&base, &url)),
        site_name: config.site_name.clone(),
        locale: if locale == Locale::Fr { "fr_FR" } else { "en_US" }.to_owned(),
    };

    let mut meta = meta_tags(snapshot.single("meta-data-tool", lang).and_then(|m| m.get("meta")));
    if found {
        meta.extend(meta_tags(entry.and_then(|e| e.get("meta"))));
    }
    for tag in &mut meta {
        tag.content = apply(&tag.content);
    }

    let home_or_none = |v: Option<&'a Value>| if is_home { v } else { None };
    let mut organization = organization(entry.and_then(|e| e.get("organization")))
        .or_else(|| organization(home_or_none(settings.and_then(|s| s.get("organization")))))
        .filter(|_| found);
    if let Some(org) = &mut organization {
        org.name = apply(&org.name);
        org.url = Some(org.url.take().unwrap_or_else(|| base.clone()));
        org.logo = org.logo.as_ref().map(|l| absolute(&base, l));
    }
    let mut product = product(entry.and_then(|e| e.get("product")))
        .or_else(|| product(home_or_none(settings.and_then(|s| s.get("product")))))
        .filter(|_| found);
    if let Some(p) = &mut product {
        p.name = apply(&p.name);
        p.description = apply_opt(p.description.take());
        p.sku = apply_opt(p.sku.take());
        p.brand_name = apply_opt(p.brand_name.take());
        p.image = p.image.as_ref().map(|i| absolute(&base, i));
    }
    let schema_faq: Vec<Faq> = entry
        .and_then(|e| e.get("schemaFaq"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| Some(Faq { question: apply(str_of(f, "question")?), answer: apply(str_of(f, "answer")?) }))
        .collect();
    let mut schema_article = article(entry.and_then(|e| e.get("schemaArticle"))).or_else(|| {
        content.map(|c| Article {
            headline: str_of(c, "title").unwrap_or_default().to_owned(),
            description: Some(description.clone()).filter(|d| !d.is_empty()),
            image: media_url(c.get("cover")),
            date_published: string_of(Some(c), "publishedAt"),
            date_modified: string_of(Some(c), "updatedAt"),
        })
    });
    if let Some(a) = &mut schema_article {
        a.headline = apply(&a.headline);
        a.description = apply_opt(a.description.take());
        a.image = a.image.as_ref().map(|i| absolute(&base, i));
    }
    let text = apply_opt(if found { pick("text", None, true) } else { None });

    let favicons = snapshot
        .single("web-setting", lang)
        .and_then(|w| w.get("favicons"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| {
            let file = f.get("file");
            Some(Favicon {
                rel: string_of(Some(f), "rel").unwrap_or_else(|| "icon".to_owned()),
                href: media_url(file)?,
                mime: string_of(Some(f), "type").or_else(|| string_of(file, "mime")),
                sizes: string_of(Some(f), "sizes"),
            })
        })
        .collect();

    let mut custom_code = CustomCode::default();
    for entry in snapshot
        .single("common", lang)
        .and_then(|c| c.get("customCode"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if entry.get("isEnabled").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        let Some(code) = entry.get("code").and_then(Value::as_str) else { continue };
        match entry.get("position").and_then(Value::as_str) {
            Some("head") => custom_code.head.push(code.to_owned()),
            Some("bodyStart") => custom_code.body_start.push(code.to_owned()),
            Some("bodyEnd") => custom_code.body_end.push(code.to_owned()),
            _ => {}
        }
    }

    let seo = SeoData {
        status: if found { 200 } else { 404 },
        locale: lang.to_owned(),
        title,
        description,
        open_graph,
        robots,
        meta,
        canonical,
        alternates,
        organization,
        product,
        schema_faq,
        schema_article,
        replacements,
        text,
        favicons,
    };
    Head { seo, custom_code }
}

fn absolute(base: &str, url: &str) -> String {
    if url.starts_with('/') && !url.starts_with("//") { format!("{base}{url}") } else { url.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_capture_what_stars_match() {
        assert_eq!(glob("/old/*", "/old/a/b", true), Some(vec!["a/b".to_owned()]));
        assert_eq!(glob("/OLD/*/x", "/old/a/x", true), Some(vec!["a".to_owned()]));
        assert_eq!(glob("/old", "/old/a", true), None);
        assert_eq!(glob("/old", "/old/a", false), Some(vec![]));
        assert_eq!(glob("/*.pdf", "/a/b.pdf", true), Some(vec!["a/b".to_owned()]));
        assert_eq!(glob("/a*a", "/a", true), None, "literal parts may not overlap");
        assert_eq!(glob("*", "", true), Some(vec![String::new()]));
    }

    #[test]
    fn routes_match_case_insensitively_with_their_parameters() {
        assert_eq!(
            match_pattern("/game/{sysname}", "/Game/Book-Of-Dead"),
            Some(vec![("sysname".into(), "Book-Of-Dead".into())])
        );
        assert_eq!(match_pattern("/game/{sysname}", "/game"), None);
        assert_eq!(match_pattern("/game/{sysname}", "/game/a/b"), None);
        assert_eq!(match_pattern("/bets/*", "/bets/a/b"), Some(vec![("*".into(), "a/b".into())]));
        assert_eq!(match_pattern("/bets/*", "/bets"), None);
        assert_eq!(match_pattern("/", "/"), Some(vec![]));
    }

    #[test]
    fn locale_prefixes_split_off() {
        assert_eq!(split_locale("/fr/gamehall/"), (Locale::Fr, "/gamehall".to_owned()));
        assert_eq!(split_locale("/fr"), (Locale::Fr, "/".to_owned()));
        assert_eq!(split_locale("/"), (Locale::En, "/".to_owned()));
        assert_eq!(split_locale("/france"), (Locale::En, "/france".to_owned()));
        assert_eq!(localized_path(Locale::Fr, "/"), "/fr");
        assert_eq!(localized_url("https://x.test", Locale::En, "/"), "https://x.test");
        assert!(is_route_segment("gamehall") && is_route_segment("Cashier") && is_route_segment("api"));
        assert!(!is_route_segment("about"));
    }

    #[test]
    fn a_wildcard_cannot_send_a_redirect_to_another_host() {
        use super::super::store;
        let t = super::super::schema::by_singular("redirect").unwrap();
        let rule = serde_json::json!({"from_url": "/go*", "to_url": "/*"});
        let prepared = store::prepare(t, rule.as_object().unwrap(), None).unwrap();
        let snapshot = Snapshot::for_tests(vec![(t, 1, "", prepared.data)]);
        assert_eq!(redirect_for(&snapshot, "/go/evil.test", None).as_deref(), Some("/evil.test"));
        assert_eq!(redirect_for(&snapshot, "/go\\\\evil.test", None).as_deref(), Some("/evil.test"));
        assert_eq!(redirect_for(&snapshot, "/go/x", Some("a=1")).as_deref(), Some("/x?a=1"));
    }

    #[test]
    fn names_are_prettified() {
        assert_eq!(prettify("book-of-dead"), "Book Of Dead");
        assert_eq!(prettify("lucky_7"), "Lucky 7");
    }
}
