//! Reading a call's parameters: the query string and the form body (urlencoded or multipart),
//! decoded strictly — invalid UTF-8, malformed multipart or an unknown content type is a clear
//! `InvalidRequestException` naming the part at fault, never a panic or a silent replacement.

use super::error::{ApiError, FieldError};
use bytes::Bytes;
use croupier_shared::FieldCode;
use http::StatusCode;
use percent_encoding::percent_decode;
use serde::de::DeserializeOwned;

/// The parameters of one call, in the order they came (query first, then body).
#[derive(Debug, Default, Clone)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    pub fn new(pairs: Vec<(String, String)>) -> Params {
        Params { pairs }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn extend(&mut self, more: Vec<(String, String)>) {
        self.pairs.extend(more);
    }

    pub fn without(mut self, names: &[&str]) -> Params {
        self.pairs.retain(|(k, _)| !names.contains(&k.as_str()));
        self
    }

    /// Deserializes into a method's input type. Empty values count as absent (SPEC §7: empty
    /// fields are null; text fields default to an empty string through `#[serde(default)]`).
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        let mut encoded = form_urlencoded::Serializer::new(String::new());
        for (k, v) in self.pairs.iter().filter(|(_, v)| !v.is_empty()) {
            encoded.append_pair(k, v);
        }
        let encoded = encoded.finish();
        let deserializer = serde_html_form::Deserializer::from_bytes(encoded.as_bytes());
        serde_path_to_error::deserialize(deserializer).map_err(|e| {
            let path = e.path().to_string();
            let message = e.inner().to_string();
            let (field, code) = if let Some(name) = backticked(&message, "missing field `") {
                (name, FieldCode::Required)
            } else if let Some(name) = backticked(&message, "duplicate field `") {
                (name, FieldCode::Duplicate)
            } else if self.pairs.iter().filter(|(k, v)| *k == path && !v.is_empty()).count() > 1 {
                (path, FieldCode::Duplicate)
            } else {
                (if path == "." { "request".to_owned() } else { path }, FieldCode::Invalid)
            };
            ApiError::invalid(vec![FieldError { field, code, params: Vec::new() }])
        })
    }
}

fn backticked(message: &str, prefix: &str) -> Option<String> {
    let rest = message.strip_prefix(prefix)?;
    rest.split('`').next().map(str::to_owned)
}

/// Where a pair was read from, to name the culprit of a decoding error.
#[derive(Clone, Copy)]
pub enum Source {
    Query,
    Body,
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Query => "query",
            Source::Body => "body",
        }
    }
}

/// `a=1&b=x+y` → pairs, refusing anything that does not decode to UTF-8.
pub fn parse_urlencoded(input: &[u8], source: Source) -> Result<Vec<(String, String)>, ApiError> {
    let mut pairs = Vec::new();
    for segment in input.split(|b| *b == b'&').filter(|s| !s.is_empty()) {
        let (name, value) = match segment.iter().position(|b| *b == b'=') {
            Some(i) => (&segment[..i], &segment[i + 1..]),
            None => (segment, &b""[..]),
        };
        let name = decode_component(name)
            .ok_or_else(|| ApiError::bad_request(Some((source.name(), FieldCode::InvalidEncoding))))?;
        let value =
            decode_component(value).ok_or_else(|| ApiError::bad_request(Some((&name, FieldCode::InvalidEncoding))))?;
        pairs.push((name, value));
    }
    Ok(pairs)
}

fn decode_component(raw: &[u8]) -> Option<String> {
    let plus_as_space: Vec<u8> = raw.iter().map(|b| if *b == b'+' { b' ' } else { *b }).collect();
    percent_decode(&plus_as_space).decode_utf8().ok().map(|c| c.into_owned())
}

/// Reads a `multipart/form-data` body into pairs; every part must be UTF-8 text.
pub async fn parse_multipart(body: Bytes, boundary: String) -> Result<Vec<(String, String)>, ApiError> {
    let stream = futures::stream::once(async move { Ok::<Bytes, std::convert::Infallible>(body) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut pairs = Vec::new();
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(_) => return Err(ApiError::bad_request(Some(("body", FieldCode::Invalid)))),
        };
        let Some(name) = field.name().map(str::to_owned) else {
            return Err(ApiError::bad_request(Some(("body", FieldCode::Invalid))));
        };
        // A part that cannot be read to its end is a malformed body, not a bad value.
        let bytes = field.bytes().await.map_err(|_| ApiError::bad_request(Some(("body", FieldCode::Invalid))))?;
        let value = String::from_utf8(bytes.to_vec())
            .map_err(|_| ApiError::bad_request(Some((&name, FieldCode::InvalidEncoding))))?;
        pairs.push((name, value));
    }
    Ok(pairs)
}

/// Parses a POST body by its content type. An empty body needs no content type.
pub async fn parse_body(content_type: Option<&str>, body: Bytes) -> Result<Vec<(String, String)>, ApiError> {
    if body.is_empty() {
        return Ok(Vec::new());
    }
    let Some(content_type) = content_type else {
        return Err(unsupported_media_type());
    };
    let mime: mime::Mime = content_type.parse().map_err(|_| unsupported_media_type())?;
    match (mime.type_(), mime.subtype()) {
        (mime::APPLICATION, mime::WWW_FORM_URLENCODED) => parse_urlencoded(&body, Source::Body),
        (mime::MULTIPART, mime::FORM_DATA) => {
            let boundary = mime
                .get_param(mime::BOUNDARY)
                .map(|b| b.as_str().to_owned())
                .ok_or_else(|| ApiError::bad_request(Some(("body", FieldCode::Invalid))))?;
            parse_multipart(body, boundary).await
        }
        _ => Err(unsupported_media_type()),
    }
}

fn unsupported_media_type() -> ApiError {
    ApiError::bad_request(Some(("content-type", FieldCode::Unsupported)))
        .with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urlencoded_pairs_decode_plus_and_percent() {
        let pairs = parse_urlencoded(b"a=1&b=x+y&c=%C3%A9t%C3%A9&flag&&d=", Source::Query).unwrap();
        let expected = [("a", "1"), ("b", "x y"), ("c", "été"), ("flag", ""), ("d", "")];
        assert_eq!(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect::<Vec<_>>(), expected);
    }

    #[test]
    fn invalid_utf8_names_the_field() {
        let err = parse_urlencoded(b"name=%FF%FE", Source::Body).unwrap_err();
        assert_eq!(err.fields()[0].field, "name");
        assert_eq!(err.fields()[0].code, FieldCode::InvalidEncoding);
        let err = parse_urlencoded(b"%FF=1", Source::Query).unwrap_err();
        assert_eq!(err.fields()[0].field, "query");
    }

    #[derive(serde::Deserialize, Debug)]
    struct Sample {
        email: String,
        #[serde(default)]
        note: String,
        count: Option<i64>,
    }

    #[test]
    fn deserialization_names_missing_and_malformed_fields() {
        let p = Params::new(vec![("email".into(), "a@b.c".into()), ("count".into(), String::new())]);
        let s: Sample = p.deserialize().unwrap();
        assert_eq!((s.email.as_str(), s.note.as_str(), s.count), ("a@b.c", "", None));

        let err = Params::new(vec![("note".into(), "x".into())]).deserialize::<Sample>().unwrap_err();
        assert_eq!((err.fields()[0].field.as_str(), err.fields()[0].code), ("email", FieldCode::Required));

        let p = Params::new(vec![("email".into(), "a".into()), ("count".into(), "many".into())]);
        let err = p.deserialize::<Sample>().unwrap_err();
        assert_eq!((err.fields()[0].field.as_str(), err.fields()[0].code), ("count", FieldCode::Invalid));
    }
}
