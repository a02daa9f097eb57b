//! Serving the built client: hashed files under `/assets/` cached for a year, other files for an
//! hour, and every page path answered with `index.html` (never cached) carrying the page's SEO
//! head, rendered by the server from content so crawlers and link previews need no JavaScript:
//! `<html lang>`, title, description, robots, canonical, `hreflang` alternates, Open Graph, the
//! site's and the page's `<meta>` list, favicons from the web setting, JSON-LD (organization,
//! product, FAQ, article) and the custom code entries at head, body start and body end. What the
//! head says comes from [`crate::features::content::seo`].
//!
//! Custom code entries are inserted as written: only API-token holders and editors write
//! content. The site's CSP applies to them as to everything else (an inline or third-party
//! script needs the CSP widened first).
//!
//! Status: content-defined redirects answer 301 before anything else; a path that is no page of
//! the site (SPEC §2's route table, both locales, plus content pages) answers 404 with the same
//! `index.html` (the client boots and shows its not-found page). If the content cannot be read,
//! the page is served with its language and the site name only, never an error.
//!
//! Also here: `/robots.txt`, `/sitemap.xml`, and the client's update check. The **build id** is
//! the first 16 hex digits of the SHA-256 of `index.html` as built (it names every hashed asset,
//! so it changes with every build). The head carries it as `<meta name="croupier-build">`;
//! `/builds/latest.json` answers `{"id","timestamp"}` (Nuxt's shape), and
//! `/builds/meta/{id}.json` answers the build's metadata for the current id and 404 for any
//! other, which tells a client running an old build to reload.

pub mod assets;

use crate::AppState;
use crate::config::Config;
use crate::features::content::Cache;
use crate::features::content::seo::{self, Head};
use crate::features::content::store::Snapshot;
use crate::hot::Versioned;
use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use croupier_platform::http::escape_html;
use croupier_shared::Locale;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::sync::Arc;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

const SHORT: &str = "public, max-age=3600";
const NO_CACHE: &str = "no-cache";

/// Shown when the client has not been built, so the API still works and the cause is plain.
const UNBUILT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Croupier</title></head>\
<body><div id=\"root\"><p>The client is not built yet: run <code>make build</code>.</p></div></body></html>";

pub struct WebAssets {
    dir: PathBuf,
    /// `assets/`, in memory and precompressed ([`assets`]).
    assets: Arc<assets::Assets>,
    index: String,
    build_id: String,
    /// When `index.html` was built (its modification time), unix milliseconds.
    built_at: i64,
    /// Pages already rendered ([`page`]).
    shells: ShellCache,
}

impl WebAssets {
    pub fn load(config: &Config) -> WebAssets {
        let dir = config.web_dir.clone();
        let path = dir.join("index.html");
        let index = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            tracing::warn!(dir = %dir.display(), "no index.html in the web directory; serving a placeholder page");
            UNBUILT.to_owned()
        });
        let build_id = hex::encode(Sha256::digest(index.as_bytes()))[..16].to_owned();
        let built_at = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .and_then(|d| i64::try_from(d.as_millis()).ok())
            .unwrap_or_else(crate::db::now_ms);
        let assets = Arc::new(assets::Assets::load(&dir.join("assets")));
        tracing::info!(files = assets.len(), bytes = assets.memory(), "client assets loaded and precompressed");
        let shells = ShellCache::new(config);
        WebAssets { dir, assets, index, build_id, built_at, shells }
    }

    /// The id of the served client build.
    pub fn build_id(&self) -> &str {
        &self.build_id
    }

    /// `index.html` with `head` rendered into it. `nonce` is stamped on every `<script>` of the
    /// content's custom code entries (see [`page`]).
    pub fn render(&self, head: &Head, nonce: &str) -> String {
        let seo = &head.seo;
        let mut html = set_html_lang(&self.index, &seo.locale);
        html = set_title(&html, &escape_html(&seo.title));
        if !seo.favicons.is_empty() {
            html = remove_icon_links(&html);
        }
        let mut tags = String::new();
        let mut meta = |attr: &str, key: &str, content: &str| {
            tags.push_str(&format!("<meta {attr}=\"{}\" content=\"{}\">", escape_html(key), escape_html(content)));
        };
        if !seo.description.is_empty() {
            meta("name", "description", &seo.description);
        }
        meta("name", "robots", &seo.robots);
        let og = &seo.open_graph;
        meta("property", "og:title", &og.title);
        if !og.description.is_empty() {
            meta("property", "og:description", &og.description);
        }
        meta("property", "og:type", &og.kind);
        if let Some(url) = &og.url {
            meta("property", "og:url", url);
        }
        if let Some(image) = &og.image {
            meta("property", "og:image", image);
        }
        meta("property", "og:site_name", &og.site_name);
        meta("property", "og:locale", &og.locale);
        meta("name", "twitter:card", if og.image.is_some() { "summary_large_image" } else { "summary" });
        for tag in &seo.meta {
            match (&tag.name, &tag.property) {
                (Some(name), _) => meta("name", name, &tag.content),
                (None, Some(property)) => meta("property", property, &tag.content),
                (None, None) => {}
            }
        }
        meta("name", "croupier-build", &self.build_id);
        if let Some(canonical) = &seo.canonical {
            tags.push_str(&format!("<link rel=\"canonical\" href=\"{}\">", escape_html(canonical)));
        }
        for alternate in &seo.alternates {
            tags.push_str(&format!(
                "<link rel=\"alternate\" hreflang=\"{}\" href=\"{}\">",
                escape_html(&alternate.hreflang),
                escape_html(&alternate.href)
            ));
        }
        for icon in &seo.favicons {
            tags.push_str(&format!("<link rel=\"{}\" href=\"{}\"", escape_html(&icon.rel), escape_html(&icon.href)));
            if let Some(mime) = &icon.mime {
                tags.push_str(&format!(" type=\"{}\"", escape_html(mime)));
            }
            if let Some(sizes) = &icon.sizes {
                tags.push_str(&format!(" sizes=\"{}\"", escape_html(sizes)));
            }
            tags.push('>');
        }
        for data in json_ld(head) {
            tags.push_str(&format!("<script type=\"application/ld+json\">{}</script>", script_safe(&data)));
        }
        for code in &head.custom_code.head {
            tags.push_str(&stamp_scripts(code, nonce));
        }
        html = insert_before(&html, "</head>", &tags);
        let mut preloads = String::new();
        for image in &head.preload_images {
            preloads.push_str(&format!("<link rel=\"preload\" as=\"image\" href=\"{}\"", escape_html(&image.href)));
            if let Some(media) = image.media {
                preloads.push_str(&format!(" media=\"{media}\""));
            }
            preloads.push_str(" fetchpriority=\"high\">");
        }
        html = insert_after_open_tag(&html, "<head", &preloads);
        html = insert_after_open_tag(&html, SHELL_MAIN, &shell_lead_image(&head.preload_images));
        html = insert_after_open_tag(&html, "<body", &stamp_scripts(&head.custom_code.body_start.concat(), nonce));
        insert_before(&html, "</body>", &stamp_scripts(&head.custom_code.body_end.concat(), nonce))
    }

    /// `index.html` with only its language and the site name, when content cannot be read.
    fn render_plain(&self, path: &str, site_name: &str) -> String {
        let html = set_html_lang(&self.index, Locale::from_path(path).code());
        set_title(&html, &escape_html(site_name))
    }
}

/// The main area of the app shell in the client's `index.html`, painted before its JavaScript
/// runs (issue 23).
const SHELL_MAIN: &str = "<main class=\"boot-main\"";

/// The page's lead image inside the app shell, so the largest paint of the first screen needs no
/// JavaScript (issue 23, LCP): the images the head preloads as one `<picture>` (the first is the
/// `<img>`, the others `<source>`s by their media). The home page's banner has a phone and a wide
/// variant (`boot-banner`, sized as the client's banner); a games page has one tile (`boot-tile`).
/// React replaces the shell with the page, which draws the same image at the same size.
fn shell_lead_image(images: &[seo::PreloadImage]) -> String {
    let Some((first, others)) = images.split_first() else { return String::new() };
    let class = if first.media.is_some() { "boot-lead boot-banner" } else { "boot-lead boot-tile" };
    let mut out = format!("<div class=\"{class}\"><picture>");
    for image in others {
        out.push_str("<source");
        if let Some(media) = image.media {
            out.push_str(&format!(" media=\"{media}\""));
        }
        out.push_str(&format!(" srcset=\"{}\">", escape_html(&image.href)));
    }
    out.push_str(&format!(
        "<img src=\"{}\" alt=\"\" fetchpriority=\"high\"></picture></div>",
        escape_html(&first.href)
    ));
    out
}

/// Adds `nonce="…"` to every `<script` tag of `code` (an editor's custom code entry: analytics,
/// chat widgets). Custom code is trusted content — only editors and API tokens write it — but the
/// site's CSP allows no inline script, so each page answer carries a fresh nonce in its CSP and
/// on these tags, and nothing else on the page can run inline code.
fn stamp_scripts(code: &str, nonce: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.to_ascii_lowercase().find("<script") {
        let after = &rest[at + "<script".len()..];
        out.push_str(&rest[..at + "<script".len()]);
        if after.starts_with(|c: char| c.is_ascii_whitespace() || c == '>') {
            out.push_str(&format!(" nonce=\"{nonce}\""));
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The page's structured data (schema.org JSON-LD).
fn json_ld(head: &Head) -> Vec<Value> {
    let seo = &head.seo;
    let mut out = Vec::new();
    if let Some(org) = &seo.organization {
        let mut data = json!({"@context": "https://schema.org", "@type": "Organization", "name": org.name});
        if let Some(url) = &org.url {
            data["url"] = json!(url);
        }
        if let Some(logo) = &org.logo {
            data["logo"] = json!(logo);
        }
        if let Some(contact) = &org.contact_point {
            let mut point = json!({"@type": "ContactPoint"});
            if let Some(telephone) = &contact.telephone {
                point["telephone"] = json!(telephone);
            }
            if let Some(kind) = &contact.contact_type {
                point["contactType"] = json!(kind);
            }
            if !contact.area_served.is_empty() {
                point["areaServed"] = json!(contact.area_served);
            }
            if !contact.available_language.is_empty() {
                point["availableLanguage"] = json!(contact.available_language);
            }
            data["contactPoint"] = point;
        }
        if !org.same_as.is_empty() {
            data["sameAs"] = json!(org.same_as);
        }
        out.push(data);
    }
    if let Some(product) = &seo.product {
        let mut data = json!({"@context": "https://schema.org", "@type": "Product", "name": product.name});
        for (key, value) in [("image", &product.image), ("description", &product.description), ("sku", &product.sku)] {
            if let Some(value) = value {
                data[key] = json!(value);
            }
        }
        if let Some(brand) = &product.brand_name {
            data["brand"] = json!({"@type": "Brand", "name": brand});
        }
        out.push(data);
    }
    if !seo.schema_faq.is_empty() {
        let questions: Vec<Value> = seo
            .schema_faq
            .iter()
            .map(|f| json!({"@type": "Question", "name": f.question, "acceptedAnswer": {"@type": "Answer", "text": f.answer}}))
            .collect();
        out.push(json!({"@context": "https://schema.org", "@type": "FAQPage", "mainEntity": questions}));
    }
    if let Some(article) = &seo.schema_article {
        let mut data = json!({"@context": "https://schema.org", "@type": "Article", "headline": article.headline});
        for (key, value) in [
            ("description", &article.description),
            ("image", &article.image),
            ("datePublished", &article.date_published),
            ("dateModified", &article.date_modified),
        ] {
            if let Some(value) = value {
                data[key] = json!(value);
            }
        }
        data["publisher"] = json!({"@type": "Organization", "name": seo.open_graph.site_name});
        out.push(data);
    }
    out
}

/// JSON that cannot end its `<script>` element early.
fn script_safe(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

fn insert_before(html: &str, marker: &str, text: &str) -> String {
    if text.is_empty() {
        return html.to_owned();
    }
    match html.rfind(marker) {
        Some(at) => format!("{}{text}{}", &html[..at], &html[at..]),
        None => html.to_owned(),
    }
}

fn insert_after_open_tag(html: &str, open: &str, text: &str) -> String {
    if text.is_empty() {
        return html.to_owned();
    }
    let Some(start) = html.find(open) else { return html.to_owned() };
    let Some(end) = html[start..].find('>').map(|e| start + e + 1) else { return html.to_owned() };
    format!("{}{text}{}", &html[..end], &html[end..])
}

/// Drops the client's own icon links when the web setting names the favicons.
fn remove_icon_links(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<link") {
        let Some(end) = rest[at..].find('>').map(|e| at + e + 1) else { break };
        let tag = rest[at..end].to_ascii_lowercase();
        out.push_str(&rest[..at]);
        let is_icon = ["rel=\"icon\"", "rel=\"shortcut icon\"", "rel=\"apple-touch-icon\"", "rel=\"mask-icon\""]
            .iter()
            .any(|rel| tag.contains(rel));
        if !is_icon {
            out.push_str(&rest[at..end]);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn set_html_lang(html: &str, lang: &str) -> String {
    let Some(start) = html.find("<html") else { return html.to_owned() };
    let Some(end) = html[start..].find('>').map(|e| start + e) else { return html.to_owned() };
    let tag = &html[start..end];
    let new_tag = match tag.find("lang=\"") {
        Some(at) => {
            let value_start = at + 6;
            let value_end = tag[value_start..].find('"').map_or(tag.len(), |e| value_start + e);
            format!("{}{lang}{}", &tag[..value_start], &tag[value_end..])
        }
        None => format!("{tag} lang=\"{lang}\""),
    };
    format!("{}{new_tag}{}", &html[..start], &html[end..])
}

fn set_title(html: &str, title: &str) -> String {
    if let (Some(start), Some(end)) = (html.find("<title>"), html.find("</title>"))
        && start < end
    {
        return format!("{}<title>{title}{}", &html[..start], &html[end..]);
    }
    match html.find("<head>") {
        Some(at) => format!("{}<head><title>{title}</title>{}", &html[..at], &html[at + 6..]),
        None => html.to_owned(),
    }
}

fn host(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::HOST).and_then(|h| h.to_str().ok())
}

/// What the site's pages need: the platform, the client's files and the content (for the head).
#[derive(Clone)]
pub struct Site {
    pub platform: AppState,
    pub web: Arc<WebAssets>,
    pub content: Arc<Cache>,
    pub games: Arc<crate::features::games::index::Index>,
}

/// A content-defined redirect for this request, if one applies. The answer is kept per (content
/// version, path, query) in [`ShellCache`]: matching every redirect rule's pattern is per-request
/// work a repeat request need not do (issue 23).
fn redirect(site: &Site, snapshot: &Snapshot, uri: &Uri) -> Option<Response> {
    let (path, query) = (uri.path(), uri.query());
    let key = redirect_key(path, query);
    let shells = &site.web.shells;
    let target = match shells.redirects.get(snapshot.version, &key) {
        Some(target) => target,
        None => {
            let target = seo::redirect_for(snapshot, path, query).map(Arc::<str>::from);
            shells.redirects.put(snapshot.version, key, target.clone());
            target
        }
    }?;
    let mut response = (StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, &*target)]).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(SHORT));
    Some(response)
}

/// The path and the query (`?` cannot be part of a path, so `None` and `Some("")` stay apart).
fn redirect_key(path: &str, query: Option<&str>) -> String {
    match query {
        None => path.to_owned(),
        Some(query) => format!("{path}?{query}"),
    }
}

/// `/` and `/index.html`: a redirect or the page.
async fn spa(State(site): State<Arc<Site>>, uri: Uri, headers: HeaderMap) -> Response {
    answer_page(&site, &uri, &headers).await
}

/// A content redirect if one applies, else the page ([`page`]), from one content snapshot.
async fn answer_page(site: &Site, uri: &Uri, headers: &HeaderMap) -> Response {
    let snapshot = site.content.snapshot(site.platform.db()).await;
    if let Ok(snapshot) = &snapshot
        && let Some(response) = redirect(site, snapshot, uri)
    {
        return response;
    }
    page(site, snapshot, uri, headers).await
}

/// `index.html` for the request's path, with its head and status.
///
/// Rendered pages are kept per (content version, catalogue version, host, path) in [`ShellCache`]
/// with a placeholder where each answer's fresh nonce goes, so a repeat request costs a lookup and
/// a concatenation. Pages answering 404 are not kept (any path can be asked for), nor a filtered
/// lobby, whose head differs from the unfiltered one's at the same path (no lead tile).
async fn page(site: &Site, snapshot: Result<Arc<Snapshot>, sqlx::Error>, uri: &Uri, headers: &HeaderMap) -> Response {
    let state = &site.platform;
    let path = uri.path();
    let path = path.strip_suffix("index.html").unwrap_or(path);
    let nonce = hex::encode(rand::random::<[u8; 16]>());
    let shell = &site.web.shells;
    // Heads depend on the content and, for the games pages' lead tile, on the catalogue: pages are
    // kept per (content version, catalogue version).
    let games = site.games.snapshot(state.db()).await.ok();
    let (status, body) = match snapshot {
        Ok(snapshot) => {
            let host = host(headers);
            let filtered_lobby =
                uri.query().is_some_and(|q| !q.is_empty()) && games_page(path, None) == Some(GamesPage::Hall);
            let version = games.as_ref().filter(|_| !filtered_lobby).map(|g| (snapshot.version, g.version()));
            let shell_page = match version.and_then(|v| shell.get(v, host, path)) {
                Some(cached) => cached,
                None => {
                    let mut head = seo::resolve(&snapshot, state.config(), path, host);
                    if let Some(games) = &games
                        && head.seo.status != 404
                        && let Some(page) = games_page(path, uri.query())
                        && let Some(href) = games.lead_image(page.sysname())
                    {
                        head.preload_images.push(seo::PreloadImage { href: href.to_owned(), media: None });
                    }
                    let status = if head.seo.status == 404 { StatusCode::NOT_FOUND } else { StatusCode::OK };
                    let html = Spliced::new(&site.web.render(&head, &shell.placeholder), &shell.placeholder);
                    let rendered = Arc::new(ShellPage { status, html });
                    if status == StatusCode::OK
                        && let Some(version) = version
                    {
                        shell.put(version, host, path, Arc::clone(&rendered));
                    }
                    rendered
                }
            };
            (shell_page.status, shell_page.html.join(&nonce))
        }
        Err(e) => {
            tracing::warn!(error = %e, "content unavailable; serving the page without its SEO head");
            (StatusCode::OK, bytes::Bytes::from(site.web.render_plain(path, &state.config().site_name)))
        }
    };
    // Maintenance: the page still loads (the client shows the maintenance page), with 503 and
    // Retry-After so crawlers keep what they indexed.
    let maintenance = state.maintenance().await;
    let status = if maintenance { StatusCode::SERVICE_UNAVAILABLE } else { status };
    let mut response =
        (status, [(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"))], body).into_response();
    if maintenance {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("300"));
    }
    if let Ok(csp) = HeaderValue::from_maybe_shared(shell.csp.join(&nonce)) {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_CACHE));
    response
}

/// A games page whose first large image is a game tile (issue 23, LCP): the lobby with no
/// filter (a filtered lobby's first tile is the client's to find) and a game's page, whose cover
/// a guest sees (a signed-in player sees the game itself; the preload is then a small waste).
#[derive(Debug, PartialEq, Eq)]
enum GamesPage<'a> {
    Hall,
    Game(&'a str),
}

impl<'a> GamesPage<'a> {
    fn sysname(&self) -> Option<&'a str> {
        match self {
            GamesPage::Hall => None,
            GamesPage::Game(sysname) => Some(sysname),
        }
    }
}

fn games_page<'a>(path: &'a str, query: Option<&str>) -> Option<GamesPage<'a>> {
    let rest = path.strip_prefix("/fr").filter(|r| r.starts_with('/')).unwrap_or(path);
    let rest = rest.strip_suffix('/').filter(|r| !r.is_empty()).unwrap_or(rest);
    if rest == "/gamehall" {
        return query.is_none_or(str::is_empty).then_some(GamesPage::Hall);
    }
    let sysname = rest.strip_prefix("/game/")?;
    (!sysname.is_empty() && !sysname.contains('/')).then_some(GamesPage::Game(sysname))
}

/// Text cut where a per-answer nonce goes (a page, the CSP): its parts joined with the nonce.
struct Spliced(Vec<bytes::Bytes>);

impl Spliced {
    fn new(text: &str, placeholder: &str) -> Spliced {
        Spliced(text.split(placeholder).map(|p| bytes::Bytes::copy_from_slice(p.as_bytes())).collect())
    }

    fn join(&self, nonce: &str) -> bytes::Bytes {
        match self.0.as_slice() {
            [whole] => whole.clone(),
            parts => {
                let mut out = Vec::with_capacity(parts.iter().map(bytes::Bytes::len).sum::<usize>() + 32 * parts.len());
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(nonce.as_bytes());
                    }
                    out.extend_from_slice(part);
                }
                bytes::Bytes::from(out)
            }
        }
    }
}

/// A rendered page with its status, the nonce's place kept.
pub struct ShellPage {
    status: StatusCode,
    html: Spliced,
}

/// Pages' shells already rendered, for one (content, catalogue) version at a time (a newer one
/// empties it). The placeholder is random per process, so no request or content can predict it.
pub struct ShellCache {
    placeholder: String,
    csp: Spliced,
    /// By [`shell_key`], per (content version, catalogue version).
    pages: Versioned<Arc<ShellPage>, (i64, i64)>,
    /// The content redirect of a path and query (none: `None`), by [`redirect_key`], per content
    /// version.
    redirects: Versioned<Option<Arc<str>>>,
}

/// The host (the head may depend on it: per-domain SEO) and the path, which holds no newline.
fn shell_key(host: Option<&str>, path: &str) -> String {
    format!("{}\n{path}", host.unwrap_or(""))
}

/// Pages kept per content version before the cache starts over.
const SHELL_PAGES: usize = 4096;

impl ShellCache {
    fn new(config: &Config) -> ShellCache {
        let placeholder = format!("croupier-nonce-{}", hex::encode(rand::random::<[u8; 16]>()));
        let csp = Spliced::new(&crate::csp(config, Some(&placeholder)), &placeholder);
        ShellCache { placeholder, csp, pages: Versioned::new(SHELL_PAGES), redirects: Versioned::new(SHELL_PAGES) }
    }

    fn get(&self, version: (i64, i64), host: Option<&str>, path: &str) -> Option<Arc<ShellPage>> {
        self.pages.get(version, &shell_key(host, path))
    }

    fn put(&self, version: (i64, i64), host: Option<&str>, path: &str, page: Arc<ShellPage>) {
        self.pages.put(version, shell_key(host, path), page);
    }
}

fn text_response(content_type: &'static str, body: String) -> Response {
    let mut response = body.into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(SHORT));
    response
}

async fn robots_txt(State(site): State<Arc<Site>>) -> Response {
    match site.content.snapshot(site.platform.db()).await {
        Ok(snapshot) => text_response("text/plain; charset=utf-8", seo::robots_txt(&snapshot, site.platform.config())),
        Err(e) => crate::api::ApiError::from(e).into_response(),
    }
}

async fn sitemap_xml(State(site): State<Arc<Site>>) -> Response {
    match site.content.snapshot(site.platform.db()).await {
        Ok(snapshot) => {
            text_response("application/xml; charset=utf-8", seo::sitemap_xml(&snapshot, site.platform.config()))
        }
        Err(e) => crate::api::ApiError::from(e).into_response(),
    }
}

fn no_cache(mut response: Response) -> Response {
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_CACHE));
    response
}

/// `/builds/latest.json`: the build the server serves now.
async fn build_latest(State(site): State<Arc<Site>>) -> Response {
    let web = &site.web;
    no_cache(Json(json!({ "id": web.build_id, "timestamp": web.built_at })).into_response())
}

/// `/builds/meta/{id}.json`: the metadata of the current build; any other id is gone (404).
async fn build_meta(State(site): State<Arc<Site>>, Path(file): Path<String>) -> Response {
    let web = &site.web;
    if file.strip_suffix(".json") != Some(web.build_id.as_str()) {
        return no_cache((StatusCode::NOT_FOUND, Json(json!({ "error": "unknown build" }))).into_response());
    }
    let meta = json!({
        "id": web.build_id,
        "timestamp": web.built_at,
        "matcher": { "static": {}, "wildcard": {}, "dynamic": {} },
        "prerendered": [],
    });
    no_cache(Json(meta).into_response())
}

/// `/backoffice` and every console path below it: the client build's second entry,
/// `backoffice.html` (react-admin routes on the client), read from the web directory at each
/// request so a console built after the server started is served. No player SEO head; kept out
/// of search engines (`X-Robots-Tag: noindex`); never cached (it names the hashed assets); the
/// site's CSP from the top's security headers. Without a build: 404 saying so.
async fn backoffice(State(site): State<Arc<Site>>) -> Response {
    let path = site.web.dir.join("backoffice.html");
    let mut response = match tokio::fs::read_to_string(&path).await {
        Ok(html) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response(),
        Err(_) => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "The back-office console is not built: run `npm run build` (it writes dist/backoffice.html).\n",
        )
            .into_response(),
    };
    response
        .headers_mut()
        .insert(HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex, nofollow"));
    no_cache(response)
}

/// A path below `/backoffice`: the console, except under `/backoffice/api`, whose unknown paths
/// answer the API's 404 envelope.
async fn backoffice_path(State(site): State<Arc<Site>>, Path(path): Path<String>) -> Response {
    if path == "api" || path.starts_with("api/") {
        return crate::features::backoffice::not_found().await;
    }
    backoffice(State(site)).await
}

/// `/assets/{*path}`: the hashed assets from memory ([`assets::Service`]), every answer prepared
/// once with the site's `security` headers in it. Kept out of [`routes`] so the top serves them
/// without the per-request middleware of dynamic answers (request id, trace span, panic guard,
/// on-the-fly compression, the security-header layer): they are static bytes, like nginx would
/// serve them.
pub fn asset_routes(web: &WebAssets, security: &[(HeaderName, HeaderValue)]) -> Router {
    Router::new().route_service("/assets/{*path}", assets::Service::new(&web.assets, security))
}

/// The site's routes. Their state is one `Arc<Site>` (one reference count per request, where a
/// `Site` is four); the file service behind the fallback is shared too and cloned only for a
/// path that looks like a file, not for every page (issue 23).
pub fn routes<S: Clone + Send + Sync + 'static>(site: Site) -> Router<S> {
    let site = Arc::new(site);
    let dir = &site.web.dir;
    let files =
        ServeDir::new(dir).append_index_html_on_directories(false).fallback(get(spa).with_state(Arc::clone(&site)));
    let files = Arc::new(
        tower::ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static(SHORT)))
            .service(files),
    );
    Router::new()
        .route("/", get(spa))
        .route("/index.html", get(spa))
        .route("/robots.txt", get(robots_txt))
        .route("/sitemap.xml", get(sitemap_xml))
        .route("/builds/latest.json", get(build_latest))
        .route("/builds/meta/{file}", get(build_meta))
        .route("/backoffice", get(backoffice))
        .route("/backoffice/", get(backoffice))
        .route("/backoffice/{*path}", get(backoffice_path))
        .fallback(move |State(site): State<Arc<Site>>, request: Request| {
            let files = Arc::clone(&files);
            async move {
                // Client routes have no extension in their last segment: skip the file lookup.
                if !looks_like_file(request.uri().path()) {
                    return answer_page(&site, request.uri(), request.headers()).await;
                }
                if let Ok(snapshot) = site.content.snapshot(site.platform.db()).await
                    && let Some(response) = redirect(&site, &snapshot, request.uri())
                {
                    return response;
                }
                match tower::Service::call(&mut (*files).clone(), request).await {
                    Ok(response) => response.into_response(),
                    Err(never) => match never {},
                }
            }
        })
        .with_state(site)
}

fn looks_like_file(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|last| last.contains('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_pages_are_the_unfiltered_lobby_and_a_games_page_in_either_language() {
        assert_eq!(games_page("/gamehall", None), Some(GamesPage::Hall));
        assert_eq!(games_page("/fr/gamehall/", Some("")), Some(GamesPage::Hall));
        assert_eq!(games_page("/gamehall", Some("category=slots")), None);
        assert_eq!(games_page("/game/dice", None), Some(GamesPage::Game("dice")));
        assert_eq!(games_page("/fr/game/dice/", None), Some(GamesPage::Game("dice")));
        assert_eq!(games_page("/fr/game/dice", None).and_then(|p| p.sysname()), Some("dice"));
        for other in ["/", "/fr", "/game/", "/game/a/b", "/games/dice", "/fresh/game/dice", "/gamehalls"] {
            assert_eq!(games_page(other, None), None, "{other}");
        }
    }

    #[test]
    fn the_shell_shows_the_preloaded_lead_image() {
        let banner = [
            seo::PreloadImage { href: "/m.svg".into(), media: Some("(max-width: 767px)") },
            seo::PreloadImage { href: "/w.svg".into(), media: Some("(min-width: 768px)") },
        ];
        assert_eq!(
            shell_lead_image(&banner),
            "<div class=\"boot-lead boot-banner\"><picture><source media=\"(min-width: 768px)\" srcset=\"/w.svg\"><img src=\"/m.svg\" alt=\"\" fetchpriority=\"high\"></picture></div>"
        );
        let tile = [seo::PreloadImage { href: "/t.svg?a=1&b=\"".into(), media: None }];
        assert_eq!(
            shell_lead_image(&tile),
            "<div class=\"boot-lead boot-tile\"><picture><img src=\"/t.svg?a=1&amp;b=&quot;\" alt=\"\" fetchpriority=\"high\"></picture></div>"
        );
        assert_eq!(shell_lead_image(&[]), "");
        let html = "<body><div id=\"root\"><main class=\"boot-main\"></main></div></body>";
        assert_eq!(
            insert_after_open_tag(html, SHELL_MAIN, &shell_lead_image(&tile[..])),
            format!("<body><div id=\"root\"><main class=\"boot-main\">{}</main></div></body>", shell_lead_image(&tile))
        );
    }

    #[test]
    fn lang_and_title_are_replaced_or_added() {
        let html = "<!doctype html><html lang=\"en\"><head><title>Vite</title></head></html>";
        assert_eq!(
            set_html_lang(html, "fr"),
            "<!doctype html><html lang=\"fr\"><head><title>Vite</title></head></html>"
        );
        assert_eq!(
            set_title(html, "X &amp; Y"),
            "<!doctype html><html lang=\"en\"><head><title>X &amp; Y</title></head></html>"
        );
        assert_eq!(set_html_lang("<html><head></head></html>", "en"), "<html lang=\"en\"><head></head></html>");
        assert_eq!(set_title("<html><head></head></html>", "T"), "<html><head><title>T</title></head></html>");
    }

    #[test]
    fn icon_links_go_and_other_links_stay() {
        let html = "<head><link rel=\"icon\" href=\"/a.svg\"><link rel=\"stylesheet\" href=\"/s.css\"><link REL=\"apple-touch-icon\" href=\"/b\"></head>";
        assert_eq!(remove_icon_links(html), "<head><link rel=\"stylesheet\" href=\"/s.css\"></head>");
    }

    #[test]
    fn code_is_inserted_at_body_start_and_end() {
        let html = "<html><body class=\"x\"><div></div></body></html>";
        let html = insert_after_open_tag(html, "<body", "<i>start</i>");
        assert_eq!(
            insert_before(&html, "</body>", "<b>end</b>"),
            "<html><body class=\"x\"><i>start</i><div></div><b>end</b></body></html>"
        );
    }

    #[test]
    fn custom_code_scripts_get_the_nonce() {
        assert_eq!(
            stamp_scripts("<SCRIPT>a()</SCRIPT><script src=\"x.js\"></script><scripts><noscript>", "n1"),
            "<SCRIPT nonce=\"n1\">a()</SCRIPT><script nonce=\"n1\" src=\"x.js\"></script><scripts><noscript>"
        );
    }

    #[test]
    fn json_ld_cannot_close_its_script() {
        assert_eq!(script_safe(&json!({"a": "</script><b>&"})), r#"{"a":"\u003c/script\u003e\u003cb\u003e\u0026"}"#);
    }
}
