//! A page's SEO data and head: where each part comes from (see the parent module) and how it
//! is resolved for a path.

use super::*;

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

pub(super) fn string_of(value: Option<&Value>, key: &str) -> Option<String> {
    value.and_then(|v| str_of(v, key)).map(str::to_owned)
}

/// A media attribute's URL (storage form: the file object; a bare URL is accepted too).
pub(super) fn media_url(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(url) if !url.is_empty() => Some(url.clone()),
        Value::Object(file) => file.get("url").and_then(Value::as_str).map(str::to_owned),
        Value::Array(files) => files.first().and_then(|f| media_url(Some(f))),
        _ => None,
    }
}

pub(super) fn string_list(value: Option<&Value>) -> Vec<String> {
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

pub(super) fn organization(value: Option<&Value>) -> Option<Organization> {
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

pub(super) fn product(value: Option<&Value>) -> Option<Product> {
    let value = value.filter(|v| v.is_object())?;
    Some(Product {
        name: string_of(Some(value), "name")?,
        image: media_url(value.get("image")),
        description: string_of(Some(value), "description"),
        sku: string_of(Some(value), "sku"),
        brand_name: string_of(Some(value), "brandName"),
    })
}

pub(super) fn article(value: Option<&Value>) -> Option<Article> {
    let value = value.filter(|v| v.is_object())?;
    Some(Article {
        headline: string_of(Some(value), "headline")?,
        description: string_of(Some(value), "description"),
        image: media_url(value.get("image")),
        date_published: string_of(Some(value), "datePublished"),
        date_modified: string_of(Some(value), "dateModified"),
    })
}

pub(super) fn meta_tags(value: Option<&Value>) -> Vec<MetaTag> {
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
pub(super) fn prettify(value: &str) -> String {
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
pub(super) fn page_seo<'a>(
    snapshot: &'a Snapshot,
    locale: Locale,
    rest: &str,
) -> Option<(&'a Value, Vec<(String, String)>)> {
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
    /// Images the page shows first and large (its likely LCP): preloaded by the head with
    /// `fetchpriority="high"` so the browser fetches them before the client asks (issue 23).
    pub preload_images: Vec<PreloadImage>,
}

/// An image to preload, for the viewports of `media` (the `<picture>` source it stands for).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreloadImage {
    pub href: String,
    pub media: Option<&'static str>,
}

/// The home page's first banner at `home-top` (as the client orders and filters them:
/// `features/home/content.ts`): its mobile image under 768 px and its wide image above, as
/// the banner's `<picture>` picks them.
fn home_banner_images(snapshot: &Snapshot, lang: &str) -> Vec<PreloadImage> {
    let now = super::super::store::iso8601(crate::db::now_ms());
    let mut banners: Vec<&Value> = snapshot
        .collection("banner", lang)
        .into_iter()
        .filter(|b| str_of(b, "position").unwrap_or("home-top") == "home-top")
        .filter(|b| str_of(b, "finishedAt").is_none_or(|end| end > now.as_str()))
        .collect();
    banners.sort_by_key(|b| b.get("order").and_then(Value::as_i64).unwrap_or(0));
    let Some(first) = banners.first() else { return Vec::new() };
    let (wide, mobile) = (media_url(first.get("image")), media_url(first.get("imageMobile")));
    match (mobile, wide) {
        (Some(mobile), Some(wide)) if mobile != wide => vec![
            PreloadImage { href: mobile, media: Some("(max-width: 767px)") },
            PreloadImage { href: wide, media: Some("(min-width: 768px)") },
        ],
        (Some(one), _) | (None, Some(one)) => vec![PreloadImage { href: one, media: None }],
        (None, None) => Vec::new(),
    }
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
    replacements.push(Replacement {
        from: "{year}".into(),
        to: super::super::store::iso8601(crate::db::now_ms())[..4].to_owned(),
    });
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
    let preload_images = if is_home && found { home_banner_images(snapshot, lang) } else { Vec::new() };
    Head { seo, custom_code, preload_images }
}

pub(super) fn absolute(base: &str, url: &str) -> String {
    if url.starts_with('/') && !url.starts_with("//") { format!("{base}{url}") } else { url.to_owned() }
}
