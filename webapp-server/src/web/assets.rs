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
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
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

    /// The text of file `name` (relative to `assets/`), if it is there and UTF-8.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.files.get(name).and_then(|a| std::str::from_utf8(&a.identity).ok())
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

fn choose(headers: &HeaderMap, asset: &Asset) -> Encoding {
    let accept = headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or("");
    let (br, gz) = (quality(accept, "br"), quality(accept, "gzip"));
    match (&asset.brotli, &asset.gzip) {
        (Some(_), _) if br > 0.0 && br >= gz => Encoding::Brotli,
        (_, Some(_)) if gz > 0.0 => Encoding::Gzip,
        (Some(_), _) if br > 0.0 => Encoding::Brotli,
        _ => Encoding::Identity,
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

/// `GET /assets/{*path}`.
pub async fn serve(State(assets): State<Arc<Assets>>, Path(path): Path<String>, headers: HeaderMap) -> Response {
    let Some(asset) = assets.files.get(path.as_str()) else {
        return (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))], "not found")
            .into_response();
    };
    let (body, coding, suffix) = match choose(&headers, asset) {
        Encoding::Brotli => (asset.brotli.clone().unwrap_or_default(), Some("br"), "-br"),
        Encoding::Gzip => (asset.gzip.clone().unwrap_or_default(), Some("gzip"), "-gz"),
        Encoding::Identity => (asset.identity.clone(), None, ""),
    };
    let etag = format!("\"{}{suffix}\"", asset.tag);
    let mut out = HeaderMap::new();
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    out.insert(header::LAST_MODIFIED, asset.last_modified.clone());
    if let Ok(value) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, value);
    }
    let not_modified = match headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) {
        Some(tags) => tags.split(',').any(|t| {
            let t = t.trim().trim_start_matches("W/");
            t == "*" || t == etag
        }),
        None => headers
            .get(header::IF_MODIFIED_SINCE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| httpdate::parse_http_date(v).ok())
            .zip(asset.last_modified.to_str().ok().and_then(|v| httpdate::parse_http_date(v).ok()))
            .is_some_and(|(since, modified)| modified <= since),
    };
    if not_modified {
        return (StatusCode::NOT_MODIFIED, out).into_response();
    }
    out.insert(header::CONTENT_TYPE, asset.content_type.clone());
    out.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if let Some(coding) = coding {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    // A range only of the representation it was asked of (`If-Range` names its tag).
    let if_range_ok = headers.get(header::IF_RANGE).and_then(|v| v.to_str().ok()).is_none_or(|v| v.trim() == etag);
    let wanted = if if_range_ok { range(&headers, body.len()) } else { Ok(None) };
    match wanted {
        Ok(None) => (StatusCode::OK, out, Body::from(body)).into_response(),
        Ok(Some((first, last))) => {
            if let Ok(value) = HeaderValue::from_str(&format!("bytes {first}-{last}/{}", body.len())) {
                out.insert(header::CONTENT_RANGE, value);
            }
            (StatusCode::PARTIAL_CONTENT, out, Body::from(body.slice(first..=last))).into_response()
        }
        Err(Unsatisfiable) => {
            if let Ok(value) = HeaderValue::from_str(&format!("bytes */{}", body.len())) {
                out.insert(header::CONTENT_RANGE, value);
            }
            (StatusCode::RANGE_NOT_SATISFIABLE, out).into_response()
        }
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
