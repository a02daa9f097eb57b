//! The client's hashed assets (`/assets/…`), served from memory, precompressed.
//!
//! At start-up every file under `<web dir>/assets` is read once; text-like ones (JS, CSS, SVG,
//! JSON, HTML, source maps, WebAssembly, …) are compressed once with Brotli (quality 9) and gzip
//! (level 9), each kept only when smaller than the file. A request gets the best encoding its
//! `Accept-Encoding` allows (`br`, then `gzip`, then the file itself; `q=0` refuses one), with
//! `Content-Encoding`, `Vary: Accept-Encoding`, a strong `ETag` per representation,
//! `Last-Modified`, `Cache-Control: immutable` (the names carry their content hash) and
//! `Accept-Ranges: bytes`. `If-None-Match` / `If-Modified-Since` answer 304; a single `Range`
//! answers 206 on the chosen representation (416 when unsatisfiable; several ranges get the whole
//! file). Nothing is compressed or read from disk per request — the reason this exists: a bot
//! broadcast sends thousands of fresh visitors at once (issue 23).

use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode, header};
use axum::response::Response;
use bytes::Bytes;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::convert::Infallible;
use std::io::Write as _;
use std::path::Path as FsPath;
use std::sync::Arc;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// One file in its representations.
pub struct Asset {
    content_type: HeaderValue,
    identity: Bytes,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
    /// The first 16 hex digits of the SHA-256 of the file.
    tag: String,
    last_modified: HeaderValue,
}

#[derive(Default)]
pub struct Assets {
    files: HashMap<String, Asset>,
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" | "map" => "application/json",
        "html" => "text/html; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        "xml" => "application/xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        _ => "application/octet-stream",
    }
}

fn compressible(name: &str) -> bool {
    matches!(
        name.rsplit('.').next().unwrap_or(""),
        "js" | "mjs" | "css" | "svg" | "json" | "map" | "html" | "txt" | "wasm" | "xml" | "ico" | "ttf"
    )
}

fn gzip(data: &[u8]) -> Option<Bytes> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(data.len() / 3), flate2::Compression::best());
    encoder.write_all(data).ok()?;
    encoder.finish().ok().map(Bytes::from)
}

fn brotli(data: &[u8]) -> Option<Bytes> {
    let mut out = Vec::with_capacity(data.len() / 3);
    let params = brotli::enc::BrotliEncoderParams { quality: 9, lgwin: 22, ..Default::default() };
    brotli::BrotliCompress(&mut std::io::Cursor::new(data), &mut out, &params).ok()?;
    Some(Bytes::from(out))
}

impl Assets {
    /// Reads and compresses every file under `dir` (missing directory: none).
    pub fn load(dir: &FsPath) -> Assets {
        let mut files = HashMap::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(current) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&current) else { continue };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let Ok(relative) = path.strip_prefix(dir) else { continue };
                let Some(name) = relative.to_str().map(|n| n.replace('\\', "/")) else { continue };
                let Ok(data) = std::fs::read(&path) else { continue };
                let modified = entry.metadata().and_then(|m| m.modified()).unwrap_or(std::time::SystemTime::UNIX_EPOCH);
                let smaller = |b: Option<Bytes>| b.filter(|b| b.len() < data.len());
                let (gz, br) =
                    if compressible(&name) { (smaller(gzip(&data)), smaller(brotli(&data))) } else { (None, None) };
                let asset = Asset {
                    content_type: HeaderValue::from_static(content_type(&name)),
                    tag: hex::encode(Sha256::digest(&data))[..16].to_owned(),
                    identity: Bytes::from(data),
                    gzip: gz,
                    brotli: br,
                    last_modified: HeaderValue::from_str(&httpdate::fmt_http_date(modified))
                        .unwrap_or(HeaderValue::from_static("Thu, 01 Jan 1970 00:00:00 GMT")),
                };
                files.insert(name, asset);
            }
        }
        Assets { files }
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Bytes held in memory, every representation counted.
    pub fn memory(&self) -> usize {
        self.files
            .values()
            .map(|a| a.identity.len() + a.gzip.as_ref().map_or(0, Bytes::len) + a.brotli.as_ref().map_or(0, Bytes::len))
            .sum()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

/// The q-value `accept` gives `coding` (`*` counts; absent: 0).
fn quality(accept: &str, coding: &str) -> f32 {
    let mut wildcard = None;
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let q =
            parts.find_map(|p| p.trim().strip_prefix("q=")).and_then(|q| q.trim().parse::<f32>().ok()).unwrap_or(1.0);
        if name.eq_ignore_ascii_case(coding) {
            return q;
        }
        if name == "*" {
            wildcard = Some(q);
        }
    }
    wildcard.unwrap_or(0.0)
}

/// The best representation `Accept-Encoding` allows among those the file has.
fn choose(headers: &HeaderMap, brotli: bool, gzip: bool) -> Encoding {
    let accept = headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or("");
    let (br, gz) = (if brotli { quality(accept, "br") } else { 0.0 }, if gzip { quality(accept, "gzip") } else { 0.0 });
    if br > 0.0 && br >= gz {
        Encoding::Brotli
    } else if gz > 0.0 {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

/// Why a `Range` cannot be served.
#[derive(Debug, PartialEq, Eq)]
struct Unsatisfiable;

/// A single `bytes=` range of a body of `len` bytes: `Ok(None)` for no (or an unusable) range.
fn range(headers: &HeaderMap, len: usize) -> Result<Option<(usize, usize)>, Unsatisfiable> {
    let Some(spec) =
        headers.get(header::RANGE).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().strip_prefix("bytes="))
    else {
        return Ok(None);
    };
    if spec.contains(',') {
        return Ok(None);
    }
    let Some((start, end)) = spec.split_once('-') else { return Ok(None) };
    let (start, end) = (start.trim(), end.trim());
    let (first, last) = match (start.parse::<usize>(), end.parse::<usize>()) {
        (Ok(s), Ok(e)) if s <= e => (s, e.min(len.saturating_sub(1))),
        (Ok(s), Err(_)) if end.is_empty() => (s, len.saturating_sub(1)),
        (Err(_), Ok(n)) if start.is_empty() && n > 0 => (len.saturating_sub(n), len.saturating_sub(1)),
        _ => return Ok(None),
    };
    if len == 0 || first >= len {
        return Err(Unsatisfiable);
    }
    Ok(Some((first, last)))
}

/// A prepared representation: its body and every header of its answers, built once.
struct Prepared {
    body: Bytes,
    /// The strong tag, quoted (`"…-gz"`).
    etag: String,
    /// The 200 answer's headers: the representation's, then the security headers.
    ok: HeaderMap,
    /// The 304 answer's headers (validators and caching only), then the security headers.
    not_modified: HeaderMap,
}

/// One file's prepared representations.
struct PreparedAsset {
    identity: Prepared,
    gzip: Option<Prepared>,
    brotli: Option<Prepared>,
    /// `Last-Modified` as a time, for `If-Modified-Since`.
    modified: Option<std::time::SystemTime>,
    /// Which representations exist (for [`choose`]).
    has_gzip: bool,
    has_brotli: bool,
}

/// `GET|HEAD /assets/{*path}` as a tower service over answers prepared at start-up.
///
/// Every header of every answer (the representation's and the site's security headers, which the
/// top passes in) is built once per file and representation when the app is assembled; a request
/// costs a lookup, the `Accept-Encoding` choice, the validator checks and a clone of a prepared
/// [`HeaderMap`] — no formatting, no header validation, no middleware (issue 23: the main bundle
/// with gzip at 80 % of nginx's `gzip_static` or better). It is routed with `route_service`, so it
/// skips axum's handler machinery and the extractors too.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Served>,
}

struct Served {
    files: HashMap<String, PreparedAsset>,
    /// The 404 answer's headers.
    missing: HeaderMap,
    /// The 405 answer's headers (a method other than GET or HEAD).
    not_allowed: HeaderMap,
}

/// `headers` followed by the `security` ones (a name already there keeps its value, as the top's
/// security layer does for a handler's own).
fn with_security(mut headers: HeaderMap, security: &[(HeaderName, HeaderValue)]) -> HeaderMap {
    headers.reserve(security.len());
    for (name, value) in security {
        headers.entry(name.clone()).or_insert_with(|| value.clone());
    }
    headers
}

fn prepare(
    body: Bytes,
    tag: &str,
    suffix: &str,
    coding: Option<&'static str>,
    asset: &Asset,
    security: &[(HeaderName, HeaderValue)],
) -> Prepared {
    let etag = format!("\"{tag}{suffix}\"");
    let mut validators = HeaderMap::with_capacity(16);
    validators.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    validators.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    validators.insert(header::LAST_MODIFIED, asset.last_modified.clone());
    if let Ok(value) = HeaderValue::from_str(&etag) {
        validators.insert(header::ETAG, value);
    }
    let mut ok = validators.clone();
    ok.insert(header::CONTENT_TYPE, asset.content_type.clone());
    ok.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if let Some(coding) = coding {
        ok.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    Prepared { body, etag, ok: with_security(ok, security), not_modified: with_security(validators, security) }
}

impl Service {
    /// Prepares every answer of `assets`, each with the `security` headers.
    pub fn new(assets: &Assets, security: &[(HeaderName, HeaderValue)]) -> Service {
        let files = assets
            .files
            .iter()
            .map(|(name, asset)| {
                let tag = asset.tag.as_str();
                let prepared = PreparedAsset {
                    identity: prepare(asset.identity.clone(), tag, "", None, asset, security),
                    gzip: asset.gzip.clone().map(|b| prepare(b, tag, "-gz", Some("gzip"), asset, security)),
                    brotli: asset.brotli.clone().map(|b| prepare(b, tag, "-br", Some("br"), asset, security)),
                    modified: asset.last_modified.to_str().ok().and_then(|v| httpdate::parse_http_date(v).ok()),
                    has_gzip: asset.gzip.is_some(),
                    has_brotli: asset.brotli.is_some(),
                };
                (name.clone(), prepared)
            })
            .collect();
        let mut missing = HeaderMap::new();
        missing.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        missing.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
        let mut not_allowed = HeaderMap::new();
        not_allowed.insert(header::ALLOW, HeaderValue::from_static("GET,HEAD"));
        Service {
            inner: Arc::new(Served {
                files,
                missing: with_security(missing, security),
                not_allowed: with_security(not_allowed, security),
            }),
        }
    }

    /// The answer to `method` `path` (the request's path, `/assets/…`) with `headers`.
    fn answer(&self, method: &Method, path: &str, headers: &HeaderMap) -> Response {
        let served = &*self.inner;
        if method != Method::GET && method != Method::HEAD {
            return respond(StatusCode::METHOD_NOT_ALLOWED, served.not_allowed.clone(), Body::empty());
        }
        let name = path.strip_prefix("/assets/").unwrap_or(path);
        // Names are hashed ASCII; a percent-encoded one is decoded as the router's `Path` would.
        let decoded = if name.contains('%') {
            percent_encoding::percent_decode_str(name).decode_utf8().ok()
        } else {
            Some(std::borrow::Cow::Borrowed(name))
        };
        let Some(asset) = decoded.and_then(|name| served.files.get(name.as_ref())) else {
            return respond(StatusCode::NOT_FOUND, served.missing.clone(), Body::from("not found"));
        };
        let chosen = match choose(headers, asset.has_brotli, asset.has_gzip) {
            Encoding::Brotli => asset.brotli.as_ref(),
            Encoding::Gzip => asset.gzip.as_ref(),
            Encoding::Identity => None,
        };
        let rep = chosen.unwrap_or(&asset.identity);
        let etag = rep.etag.as_str();
        let not_modified = match headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) {
            Some(tags) => tags.split(',').any(|t| {
                let t = t.trim().trim_start_matches("W/");
                t == "*" || t == etag
            }),
            None => headers
                .get(header::IF_MODIFIED_SINCE)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| httpdate::parse_http_date(v).ok())
                .zip(asset.modified)
                .is_some_and(|(since, modified)| modified <= since),
        };
        if not_modified {
            return respond(StatusCode::NOT_MODIFIED, rep.not_modified.clone(), Body::empty());
        }
        let body = &rep.body;
        if !headers.contains_key(header::RANGE) {
            return respond(StatusCode::OK, rep.ok.clone(), Body::from(body.clone()));
        }
        // A range only of the representation it was asked of (`If-Range` names its tag).
        let if_range_ok = headers.get(header::IF_RANGE).and_then(|v| v.to_str().ok()).is_none_or(|v| v.trim() == etag);
        let wanted = if if_range_ok { range(headers, body.len()) } else { Ok(None) };
        let mut out = rep.ok.clone();
        match wanted {
            Ok(None) => respond(StatusCode::OK, out, Body::from(body.clone())),
            Ok(Some((first, last))) => {
                if let Ok(value) = HeaderValue::from_str(&format!("bytes {first}-{last}/{}", body.len())) {
                    out.insert(header::CONTENT_RANGE, value);
                }
                respond(StatusCode::PARTIAL_CONTENT, out, Body::from(body.slice(first..=last)))
            }
            Err(Unsatisfiable) => {
                if let Ok(value) = HeaderValue::from_str(&format!("bytes */{}", body.len())) {
                    out.insert(header::CONTENT_RANGE, value);
                }
                respond(StatusCode::RANGE_NOT_SATISFIABLE, out, Body::empty())
            }
        }
    }
}

fn respond(status: StatusCode, headers: HeaderMap, body: Body) -> Response {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

impl<B> tower::Service<Request<B>> for Service {
    type Response = Response;
    type Error = Infallible;
    type Future = std::future::Ready<Result<Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        std::future::ready(Ok(self.answer(request.method(), request.uri().path(), request.headers())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn accept_encoding_is_read_with_its_q_values() {
        assert!((quality("gzip, deflate, br", "br") - 1.0).abs() < f32::EPSILON);
        assert!(quality("gzip;q=0.5, br;q=0", "br").abs() < f32::EPSILON);
        assert!((quality("gzip;q=0.5", "gzip") - 0.5).abs() < f32::EPSILON);
        assert!((quality("*;q=0.3", "br") - 0.3).abs() < f32::EPSILON);
        assert!(quality("", "gzip").abs() < f32::EPSILON);
    }

    #[test]
    fn ranges_are_single_and_bounded() {
        assert_eq!(range(&headers(&[("range", "bytes=0-9")]), 100), Ok(Some((0, 9))));
        assert_eq!(range(&headers(&[("range", "bytes=90-")]), 100), Ok(Some((90, 99))));
        assert_eq!(range(&headers(&[("range", "bytes=-10")]), 100), Ok(Some((90, 99))));
        assert_eq!(range(&headers(&[("range", "bytes=95-200")]), 100), Ok(Some((95, 99))));
        assert_eq!(range(&headers(&[("range", "bytes=100-")]), 100), Err(Unsatisfiable));
        assert_eq!(range(&headers(&[("range", "bytes=0-1,5-6")]), 100), Ok(None));
        assert_eq!(range(&headers(&[("range", "items=0-1")]), 100), Ok(None));
        assert_eq!(range(&headers(&[]), 100), Ok(None));
    }

    #[test]
    fn compression_round_trips() {
        let text = "console.log('croupier');\n".repeat(200);
        let gz = gzip(text.as_bytes()).unwrap_or_default();
        let mut out = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut out).unwrap_or_default();
        assert_eq!(out, text);
        let br = brotli(text.as_bytes()).unwrap_or_default();
        let mut out = Vec::new();
        brotli::BrotliDecompress(&mut std::io::Cursor::new(&br[..]), &mut out).unwrap_or_default();
        assert_eq!(out, text.as_bytes());
        assert!(br.len() < text.len() && gz.len() < text.len());
    }
}
