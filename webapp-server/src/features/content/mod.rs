//! The headless content service of SPEC §7, built into the server, and the SEO resting on it.
//!
//! - [`schema`]: the content types (every block of SPEC §3 "Content-driven configuration").
//! - [`store`]: entries as JSON documents per type and locale, the per-replica cache kept right
//!   by a version counter in the database, the demo content loaded at first start, export and
//!   import (`croupier-server content export|import <dir>`).
//! - [`query`]: the Strapi v4 query grammar and its in-memory evaluator.
//! - `rest` / `users`: `/cms/api/…` in Strapi v4's REST dialect, and who may write.
//! - [`seo`]: routes, SEO data (`metadata.get`, the server-rendered head), redirects, robots.txt
//!   and the sitemap.
//!
//! The demo brand lives in `webapp-server/content/` as readable JSON (`en/`, `fr/`, `global/`)
//! and its artwork as our own SVG files in `content/media/`, served at `/uploads/{file}` (where
//! Strapi serves uploads) from the binary itself.

mod demo;
pub mod query;
mod rest;
pub mod schema;
pub mod seo;
pub mod store;
mod users;

pub use store::{Cache, Snapshot};

use crate::AppState;
use axum::extract::{FromRef, Path};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// `/cms/api/…` and the built-in artwork under `/uploads/`.
pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    AppState: FromRef<S>,
    Arc<Cache>: FromRef<S>,
{
    rest::routes().route("/uploads/{file}", axum::routing::get(upload))
}

/// `GET /uploads/{file}`: one of the demo brand's SVG files.
async fn upload(Path(file): Path<String>) -> Response {
    match demo::MEDIA.iter().find(|(name, _)| *name == file) {
        Some((_, svg)) => {
            let mut response = (*svg).into_response();
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"));
            response
        }
        None => rest::not_found().into_response(),
    }
}
