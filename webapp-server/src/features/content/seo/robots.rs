//! Redirects, robots rules and the sitemap: the content's URL patterns.

use super::*;

/// Matches `text` against a pattern whose `*` matches any run of characters, ignoring ASCII
/// case; answers what each `*` matched. Leftmost placement of each literal part is correct for
/// `*`-only patterns and takes O(len × parts).
pub(super) fn glob(pattern: &str, text: &str, anchored_end: bool) -> Option<Vec<String>> {
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
pub(super) struct RobotsGroup {
    agents: Vec<String>,
    allow: Vec<String>,
    disallow: Vec<String>,
}

pub(super) fn robots_groups(snapshot: &Snapshot) -> Vec<RobotsGroup> {
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

pub(super) fn esc(text: &str) -> String {
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
pub(super) fn localized_url(base: &str, locale: Locale, rest: &str) -> String {
    let path = localized_path(locale, rest);
    if path == "/" { base.to_owned() } else { format!("{base}{path}") }
}

pub(super) fn base_url(snapshot: &Snapshot, config: &Config) -> String {
    snapshot
        .single("settings-seo", DEFAULT_LOCALE)
        .and_then(|s| s.get("canonical"))
        .and_then(|c| str_of(c, "baseUrl"))
        .unwrap_or(&config.public_url)
        .trim_end_matches('/')
        .to_owned()
}
