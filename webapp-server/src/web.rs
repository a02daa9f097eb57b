//! Serving the built client: hashed files under `/assets/` cached for a year, other files for an
//! hour, and every other path answered with `index.html` (never cached) whose `<html lang>` and
//! `<title>` the server fills in for the page, so crawlers and link previews see them without
//! running JavaScript. The SEO issue extends [`page_title`] into the full head.

use crate::config::Config;
use crate::state::AppState;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use croupier_shared::Locale;
use std::path::PathBuf;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const SHORT: &str = "public, max-age=3600";
const NO_CACHE: &str = "no-cache";

/// Shown when the client has not been built, so the API still works and the cause is plain.
const UNBUILT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Croupier</title></head>\
<body><div id=\"root\"><p>The client is not built yet: run <code>make build</code>.</p></div></body></html>";

pub struct WebAssets {
    dir: PathBuf,
    index: String,
}

impl WebAssets {
    pub fn load(config: &Config) -> WebAssets {
        let dir = config.web_dir.clone();
        let index = std::fs::read_to_string(dir.join("index.html")).unwrap_or_else(|_| {
            tracing::warn!(dir = %dir.display(), "no index.html in the web directory; serving a placeholder page");
            UNBUILT.to_owned()
        });
        WebAssets { dir, index }
    }

    /// `index.html` for `path`, with its language and title.
    pub fn render_index(&self, path: &str, site_name: &str) -> String {
        let path = path.strip_suffix("index.html").unwrap_or(path);
        let locale = Locale::from_path(path);
        let title = escape_html(&page_title(path, locale, site_name));
        let html = set_html_lang(&self.index, locale.code());
        set_title(&html, &title)
    }
}

/// The page title until content-driven SEO takes over.
pub fn page_title(path: &str, locale: Locale, site_name: &str) -> String {
    let rest = path.trim_matches('/');
    let rest = if locale == Locale::Fr { rest.get(2..).unwrap_or("").trim_start_matches('/') } else { rest };
    match (rest.is_empty(), locale) {
        (true, Locale::En) => format!("{site_name} — Online casino and sportsbook"),
        (true, Locale::Fr) => format!("{site_name} — Casino en ligne et paris sportifs"),
        (false, _) => site_name.to_owned(),
    }
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

pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

async fn spa(State(state): State<AppState>, request: Request) -> Response {
    let path = request.uri().path();
    let html = state.web().render_index(path, &state.config().site_name);
    let mut response = (StatusCode::OK, Html(html)).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_CACHE));
    response
}

pub fn routes(state: &AppState) -> Router<AppState> {
    let dir = &state.web().dir;
    let assets = ServeDir::new(dir.join("assets")).append_index_html_on_directories(false);
    let files = ServeDir::new(dir).append_index_html_on_directories(false).fallback(get(spa).with_state(state.clone()));
    let files = tower::ServiceBuilder::new()
        .layer(SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static(SHORT)))
        .service(files);
    Router::new()
        .route("/", get(spa))
        .route("/index.html", get(spa))
        .nest_service(
            "/assets",
            tower::ServiceBuilder::new()
                .layer(SetResponseHeaderLayer::if_not_present(
                    header::CACHE_CONTROL,
                    HeaderValue::from_static(IMMUTABLE),
                ))
                .service(assets),
        )
        .fallback(move |State(state): State<AppState>, request: Request| {
            let mut files = files.clone();
            async move {
                // Client routes have no extension in their last segment: skip the file lookup.
                if looks_like_file(request.uri().path()) {
                    match tower::Service::call(&mut files, request).await {
                        Ok(response) => response.into_response(),
                        Err(never) => match never {},
                    }
                } else {
                    spa(State(state), request).await
                }
            }
        })
}

fn looks_like_file(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|last| last.contains('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn home_titles_follow_the_locale() {
        assert_eq!(page_title("/", Locale::En, "C"), "C — Online casino and sportsbook");
        assert_eq!(page_title("/fr", Locale::Fr, "C"), "C — Casino en ligne et paris sportifs");
        assert_eq!(page_title("/fr/", Locale::Fr, "C"), "C — Casino en ligne et paris sportifs");
        assert_eq!(page_title("/gamehall", Locale::En, "C"), "C");
    }
}
