//! Checking and normalising a document before it is stored: reserved and unknown attributes,
//! media, component ids and each content type's own rules.

use super::*;

/// One refused attribute: its path (`footer.columns.0.title`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub path: String,
    pub message: String,
}

impl Issue {
    pub(super) fn new(path: impl Into<String>, message: impl Into<String>) -> Issue {
        Issue { path: path.into(), message: message.into() }
    }
}

/// A checked document: its attributes in storage form and the relation ids it points at.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub data: Map<String, Value>,
    pub relations: Vec<(&'static str, i64)>,
}

pub(super) fn is_attribute_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.len() <= 128
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Checks attributes for `t` and brings them to storage form: media as Strapi file objects with
/// ids, components with ids, relations as ids. `existing` (an update) is merged under `attrs`
/// (Strapi's PUT changes only the attributes it is given).
pub fn prepare(
    t: &'static ContentType,
    attrs: &Map<String, Value>,
    existing: Option<&Map<String, Value>>,
) -> Result<Prepared, Vec<Issue>> {
    let mut issues = Vec::new();
    let mut data = existing.cloned().unwrap_or_default();
    let mut relations = Vec::new();
    for (key, value) in attrs {
        if RESERVED.contains(&key.as_str()) {
            continue;
        }
        if !is_attribute_name(key) {
            issues.push(Issue::new(key.clone(), "is not a valid attribute name"));
            continue;
        }
        let normalised = normalise(t, key, key, value, &mut issues, &mut relations);
        data.insert(key.clone(), normalised);
    }
    assign_component_ids(t, &mut data);
    for required in t.required {
        let missing = match data.get(*required) {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.trim().is_empty(),
            Some(_) => false,
        };
        if missing {
            issues.push(Issue::new(*required, "is a required field"));
        }
    }
    for (name, options) in t.enums {
        match data.get(*name) {
            None | Some(Value::Null) => {}
            Some(Value::String(v)) if options.contains(&v.as_str()) => {}
            Some(_) => issues.push(Issue::new(*name, format!("must be one of {}", options.join(", ")))),
        }
    }
    check_type_rules(t, &data, &mut issues);
    if issues.is_empty() { Ok(Prepared { data, relations }) } else { Err(issues) }
}

pub(super) fn normalise(
    t: &ContentType,
    schema_path: &str,
    shown_path: &str,
    value: &Value,
    issues: &mut Vec<Issue>,
    relations: &mut Vec<(&'static str, i64)>,
) -> Value {
    match t.attr(schema_path) {
        None => value.clone(),
        Some(Attr::Component) => {
            let component =
                |item: &Map<String, Value>, shown: &str, issues: &mut Vec<Issue>, relations: &mut Vec<_>| {
                    let mut out = Map::new();
                    for (key, child) in item {
                        if key == "id" || key == "__component" {
                            out.insert(key.clone(), child.clone());
                            continue;
                        }
                        if !is_attribute_name(key) {
                            issues.push(Issue::new(format!("{shown}.{key}"), "is not a valid attribute name"));
                            continue;
                        }
                        let child_schema = format!("{schema_path}.{key}");
                        let child_shown = format!("{shown}.{key}");
                        out.insert(key.clone(), normalise(t, &child_schema, &child_shown, child, issues, relations));
                    }
                    Value::Object(out)
                };
            match value {
                Value::Null => Value::Null,
                Value::Object(item) => component(item, shown_path, issues, relations),
                Value::Array(items) => Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| match item {
                            Value::Object(item) => component(item, &format!("{shown_path}.{i}"), issues, relations),
                            _ => {
                                issues.push(Issue::new(format!("{shown_path}.{i}"), "must be a component (an object)"));
                                Value::Null
                            }
                        })
                        .collect(),
                ),
                _ => {
                    issues.push(Issue::new(shown_path, "must be a component (an object), a list of them or null"));
                    Value::Null
                }
            }
        }
        Some(Attr::Media) => match value {
            Value::Null => Value::Null,
            Value::Array(items) => Value::Array(
                items.iter().enumerate().map(|(i, item)| media(item, &format!("{shown_path}.{i}"), issues)).collect(),
            ),
            single => media(single, shown_path, issues),
        },
        Some(Attr::Relation(target)) => {
            let target: &'static str = target;
            let mut id_of = |item: &Value, shown: &str, issues: &mut Vec<Issue>| -> Value {
                let id = match item {
                    Value::Object(map) => map.get("id").and_then(Value::as_i64),
                    other => other.as_i64(),
                };
                match id {
                    Some(id) if id > 0 => {
                        relations.push((target, id));
                        Value::from(id)
                    }
                    _ => {
                        issues.push(Issue::new(shown, format!("must be the id of a {target} entry")));
                        Value::Null
                    }
                }
            };
            // Strapi's relation syntax: an id, a list of ids, or `{set: [...]}` / `{connect: [...]}`.
            let value = match value {
                Value::Object(map) if map.contains_key("set") || map.contains_key("connect") => {
                    map.get("set").or_else(|| map.get("connect")).unwrap_or(&Value::Null)
                }
                other => other,
            };
            match value {
                Value::Null => Value::Null,
                Value::Array(items) => Value::Array(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| id_of(item, &format!("{shown_path}.{i}"), issues))
                        .collect(),
                ),
                single => id_of(single, shown_path, issues),
            }
        }
    }
}

/// A media value in storage form: Strapi's upload-file object, from a URL or such an object.
pub(super) fn media(value: &Value, shown: &str, issues: &mut Vec<Issue>) -> Value {
    let mut file = match value {
        Value::String(url) => {
            let mut file = Map::new();
            file.insert("url".into(), Value::String(url.clone()));
            file
        }
        Value::Object(map) if map.get("url").is_some_and(Value::is_string) => map.clone(),
        _ => {
            issues.push(Issue::new(shown, "must be a file: a URL or an object with a `url`"));
            return Value::Null;
        }
    };
    let url = file.get("url").and_then(Value::as_str).unwrap_or("").to_owned();
    let safe =
        (url.starts_with('/') && !url.starts_with("//")) || url.starts_with("https://") || url.starts_with("http://");
    if !safe || url.chars().any(|c| c.is_whitespace() || c == '"' || c == '<' || c == '>') {
        issues.push(Issue::new(shown, "must be a site path or an http(s) URL"));
    }
    let name = url.rsplit('/').next().unwrap_or("").split(['?', '#']).next().unwrap_or("").to_owned();
    let ext = name.rsplit_once('.').map(|(_, ext)| format!(".{}", ext.to_ascii_lowercase())).unwrap_or_default();
    file.entry("id").or_insert_with(|| Value::from(media_id(&url)));
    file.entry("name").or_insert_with(|| Value::String(name));
    file.entry("mime").or_insert_with(|| mime_of(&ext).map_or(Value::Null, |m| Value::String(m.into())));
    file.entry("ext").or_insert_with(|| Value::String(ext));
    for key in ["alternativeText", "width", "height"] {
        file.entry(key).or_insert(Value::Null);
    }
    Value::Object(file)
}

/// A stable id for a file known only by its URL (there is no upload library to number them).
pub(super) fn media_id(url: &str) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in url.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    i64::try_from(hash % 2_000_000_000).unwrap_or(0) + 1
}

pub(super) fn mime_of(ext: &str) -> Option<&'static str> {
    Some(match ext {
        ".svg" => "image/svg+xml",
        ".png" => "image/png",
        ".jpg" | ".jpeg" => "image/jpeg",
        ".webp" => "image/webp",
        ".gif" => "image/gif",
        ".ico" => "image/x-icon",
        ".mp3" => "audio/mpeg",
        ".json" | ".webmanifest" => "application/manifest+json",
        _ => return None,
    })
}

/// Gives every component object without an id the next free one (Strapi numbers components).
pub(super) fn assign_component_ids(t: &ContentType, data: &mut Map<String, Value>) {
    fn walk(t: &ContentType, path: &str, value: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
        if t.attr(path) != Some(Attr::Component) {
            return;
        }
        let items: Vec<&mut Value> = match value {
            Value::Array(items) => items.iter_mut().collect(),
            other => vec![other],
        };
        for item in items {
            if let Value::Object(map) = item {
                visit(map);
                for (key, child) in map.iter_mut() {
                    walk(t, &format!("{path}.{key}"), child, visit);
                }
            }
        }
    }
    let mut max = 0;
    for (key, value) in data.iter_mut() {
        walk(t, key, value, &mut |map| max = max.max(map.get("id").and_then(Value::as_i64).unwrap_or(0)));
    }
    for (key, value) in data.iter_mut() {
        walk(t, key, value, &mut |map| {
            if !map.get("id").is_some_and(Value::is_i64) {
                max += 1;
                map.insert("id".into(), Value::from(max));
            }
        });
    }
}

pub(super) fn text<'a>(data: &'a Map<String, Value>, key: &str) -> &'a str {
    data.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Rules of particular types, beyond shapes.
pub(super) fn check_type_rules(t: &ContentType, data: &Map<String, Value>, issues: &mut Vec<Issue>) {
    match t.singular {
        "page" => {
            let slug = text(data, "slug");
            let well_formed = !slug.is_empty()
                && slug
                    .split('-')
                    .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
            if !slug.is_empty() && !well_formed {
                issues.push(Issue::new("slug", "must be lower-case letters and digits joined by single dashes"));
            } else if !slug.is_empty() && super::super::seo::is_route_segment(slug) {
                issues.push(Issue::new("slug", "is a route of the site and cannot be a content page"));
            }
        }
        "page-seo" => {
            let url = text(data, "url");
            if !url.is_empty() && (!url.starts_with('/') || super::super::seo::has_locale_prefix(url)) {
                issues.push(Issue::new("url", "must be a site path without the locale prefix, like /gamehall"));
            }
        }
        "redirect" => {
            let (from, to) = (text(data, "from_url"), text(data, "to_url"));
            if !from.is_empty() && !from.starts_with('/') {
                issues.push(Issue::new("from_url", "must be a site path starting with /"));
            }
            let internal = to.starts_with('/') && !to.starts_with("//");
            if !(to.is_empty() || internal || to.starts_with("https://") || to.starts_with("http://")) {
                issues.push(Issue::new("to_url", "must be a site path or an http(s) URL"));
            }
            if !from.is_empty() && from == to {
                issues.push(Issue::new("to_url", "must differ from from_url"));
            }
        }
        "domain-seo" => {
            let host = text(data, "host");
            if !host.is_empty()
                && !host.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-.:".contains(&b))
            {
                issues.push(Issue::new("host", "must be a lower-case host name, optionally with a port"));
            }
        }
        "common" => {
            if let Some(Value::Array(entries)) = data.get("customCode") {
                for (i, entry) in entries.iter().enumerate() {
                    let position = entry.get("position").and_then(Value::as_str).unwrap_or("");
                    if !matches!(position, "head" | "bodyStart" | "bodyEnd") {
                        issues
                            .push(Issue::new(format!("customCode.{i}.position"), "must be head, bodyStart or bodyEnd"));
                    }
                }
            }
        }
        _ => {}
    }
}
