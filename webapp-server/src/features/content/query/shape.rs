//! Shaping an entry into Strapi's REST answer (fields, populate, media), and flattening it back
//! the way the client reads it.

use super::sort::{compare_docs, sort_keys};
use super::*;

/// Strapi file attributes, in Strapi's order.
pub(super) const MEDIA_ATTRIBUTES: [&str; 16] = [
    "name",
    "alternativeText",
    "caption",
    "width",
    "height",
    "formats",
    "hash",
    "ext",
    "mime",
    "size",
    "url",
    "previewUrl",
    "provider",
    "provider_metadata",
    "createdAt",
    "updatedAt",
];

/// File attributes always present in a populated media (null when unknown).
pub(super) const MEDIA_REQUIRED: [&str; 6] = ["url", "name", "alternativeText", "width", "height", "mime"];

pub(super) static NO_POPULATE: Populate = Populate::None;

/// One stored entry as Strapi v4 REST answers it: `{"id", "attributes"}` (see the module docs).
pub fn shape_entry(
    doc: &Value,
    query_fields: Option<&[String]>,
    populate: &Populate,
    relation_keys: &dyn Fn(&str) -> RelationKind,
) -> Value {
    shape_entity(doc, query_fields, populate, "", relation_keys)
}

pub(super) fn shape_entity(
    doc: &Value,
    fields: Option<&[String]>,
    populate: &Populate,
    prefix: &str,
    kinds: &dyn Fn(&str) -> RelationKind,
) -> Value {
    match doc {
        Value::Object(map) => {
            let mut out = Map::new();
            out.insert("id".into(), map.get("id").cloned().unwrap_or(Value::Null));
            out.insert(
                "attributes".into(),
                Value::Object(shape_attributes(map, fields, populate, prefix, kinds, false)),
            );
            Value::Object(out)
        }
        Value::Null => Value::Null,
        // A relation stored as a bare id.
        other => entity(other.clone(), Map::new()),
    }
}

pub(super) fn entity(id: Value, attributes: Map<String, Value>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), id);
    out.insert("attributes".into(), Value::Object(attributes));
    Value::Object(out)
}

pub(super) fn join_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") }
}

pub(super) fn shape_attributes(
    map: &Map<String, Value>,
    fields: Option<&[String]>,
    populate: &Populate,
    prefix: &str,
    kinds: &dyn Fn(&str) -> RelationKind,
    component: bool,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in map {
        if key == "id" || (component && key == "__component") {
            if component {
                out.insert(key.clone(), value.clone());
            }
            continue;
        }
        let path = join_path(prefix, key);
        match kinds(&path) {
            RelationKind::Scalar => {
                if fields.is_none_or(|fields| fields.iter().any(|field| field == key)) {
                    out.insert(key.clone(), value.clone());
                }
            }
            kind => {
                if let Some(options) = child_options(populate, key) {
                    out.insert(key.clone(), shape_populated(value, kind, &options, &path, kinds));
                }
            }
        }
    }
    if let Populate::Fields(requested) = populate {
        for key in requested.keys() {
            if map.contains_key(key) {
                continue;
            }
            match kinds(&join_path(prefix, key)) {
                RelationKind::Relation | RelationKind::Media => {
                    out.insert(key.clone(), data(Value::Null));
                }
                RelationKind::Component => {
                    out.insert(key.clone(), Value::Null);
                }
                RelationKind::Scalar => {}
            }
        }
    }
    out
}

/// How the attribute `key` is populated at this level, if it is.
pub(super) fn child_options<'a>(populate: &'a Populate, key: &str) -> Option<Cow<'a, PopulateNode>> {
    match populate {
        Populate::None => None,
        Populate::All => Some(Cow::Owned(PopulateNode::default())),
        Populate::Deep(depth) if *depth >= 2 => {
            Some(Cow::Owned(PopulateNode { populate: Populate::Deep(depth - 1), ..PopulateNode::default() }))
        }
        Populate::Deep(_) => None,
        Populate::Fields(map) => map.get(key).map(Cow::Borrowed),
    }
}

pub(super) fn data(value: Value) -> Value {
    let mut out = Map::new();
    out.insert("data".into(), value);
    Value::Object(out)
}

/// Items kept by a populate node's filters, in its sort order.
pub(super) fn select<'a>(items: &'a [Value], options: &PopulateNode) -> Vec<&'a Value> {
    let mut kept: Vec<&Value> =
        items.iter().filter(|item| options.filters.as_ref().is_none_or(|filter| matches(filter, item))).collect();
    if !options.sort.is_empty() {
        let keys = sort_keys(&options.sort);
        kept.sort_by(|a, b| compare_docs(a, b, &keys));
    }
    kept
}

pub(super) fn shape_populated(
    value: &Value,
    kind: RelationKind,
    options: &PopulateNode,
    path: &str,
    kinds: &dyn Fn(&str) -> RelationKind,
) -> Value {
    let one = |item: &Value| -> Value {
        match kind {
            RelationKind::Relation => shape_entity(item, options.fields.as_deref(), &options.populate, path, kinds),
            RelationKind::Media => media_entity(item, options.fields.as_deref()),
            RelationKind::Component | RelationKind::Scalar => shape_component(item, options, path, kinds),
        }
    };
    let shaped = match value {
        Value::Array(items) => Value::Array(select(items, options).into_iter().map(one).collect()),
        Value::Null => Value::Null,
        single => {
            if options.filters.as_ref().is_some_and(|filter| !matches(filter, single)) {
                Value::Null
            } else {
                one(single)
            }
        }
    };
    match kind {
        RelationKind::Relation | RelationKind::Media => data(shaped),
        RelationKind::Component | RelationKind::Scalar => shaped,
    }
}

pub(super) fn shape_component(
    item: &Value,
    options: &PopulateNode,
    path: &str,
    kinds: &dyn Fn(&str) -> RelationKind,
) -> Value {
    let Value::Object(map) = item else {
        return item.clone();
    };
    let (populate, fields) = if options.on.is_empty() {
        (&options.populate, options.fields.as_deref())
    } else {
        match map.get("__component").and_then(Value::as_str).and_then(|uid| options.on.get(uid)) {
            Some(fragment) => (&fragment.populate, fragment.fields.as_deref()),
            None => (&NO_POPULATE, options.fields.as_deref()),
        }
    };
    Value::Object(shape_attributes(map, fields, populate, path, kinds, true))
}

pub(super) fn media_entity(item: &Value, fields: Option<&[String]>) -> Value {
    let mut attributes = Map::new();
    let id = match item {
        Value::Object(map) => {
            for key in MEDIA_ATTRIBUTES {
                match map.get(key) {
                    Some(value) => {
                        attributes.insert(key.into(), value.clone());
                    }
                    None if MEDIA_REQUIRED.contains(&key) => {
                        attributes.insert(key.into(), Value::Null);
                    }
                    None => {}
                }
            }
            map.get("id").cloned().unwrap_or(Value::Null)
        }
        Value::String(url) => {
            for key in MEDIA_REQUIRED {
                attributes.insert(key.into(), Value::Null);
            }
            attributes.insert("url".into(), Value::String(url.clone()));
            Value::Null
        }
        other => other.clone(),
    };
    if let Some(fields) = fields {
        attributes.retain(|key, _| fields.iter().any(|field| field == key));
    }
    entity(id, attributes)
}

// ---------------------------------------------------------------------------------------------
// Flattening
// ---------------------------------------------------------------------------------------------

/// Removes Strapi's REST wrappers as the client does (SPEC §3): `{data: X}` (alone or with
/// `meta`) becomes X, `{id, attributes: {…}}` becomes `{id, …}`, arrays likewise, and a media
/// entry (attributes with a string `url` and nothing but Strapi file fields) becomes its url.
/// A JSON attribute whose only key is `data` is unwrapped too: the shapes are indistinguishable.
pub fn flatten(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(flatten).collect()),
        Value::Object(map) => {
            if let Some(inner) = map.get("data")
                && map.keys().all(|key| key == "data" || key == "meta")
            {
                return flatten(inner);
            }
            if let Some(Value::Object(attributes)) = map.get("attributes")
                && map.keys().all(|key| key == "id" || key == "attributes")
            {
                if let Some(url) = media_url(attributes) {
                    return url;
                }
                let mut out = Map::new();
                if let Some(id) = map.get("id") {
                    out.insert("id".into(), id.clone());
                }
                for (key, attribute) in attributes {
                    out.insert(key.clone(), flatten(attribute));
                }
                return Value::Object(out);
            }
            Value::Object(map.iter().map(|(key, child)| (key.clone(), flatten(child))).collect())
        }
        scalar => scalar.clone(),
    }
}

pub(super) fn media_url(attributes: &Map<String, Value>) -> Option<Value> {
    let url = attributes.get("url").filter(|url| url.is_string())?;
    attributes.keys().all(|key| MEDIA_ATTRIBUTES.contains(&key.as_str())).then(|| url.clone())
}
