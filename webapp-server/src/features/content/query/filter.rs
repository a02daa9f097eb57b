//! Evaluating a [`Filter`] against an entry's document (Strapi's three-valued logic over
//! arrays and relations).

use super::parse::parse_bool;
use super::*;

/// SQL's three-valued logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tri {
    True,
    False,
    Unknown,
}

impl Tri {
    fn from(value: bool) -> Tri {
        if value { Tri::True } else { Tri::False }
    }
    fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Unknown => Tri::Unknown,
        }
    }
    fn and(self, other: Tri) -> Tri {
        match (self, other) {
            (Tri::False, _) | (_, Tri::False) => Tri::False,
            (Tri::True, Tri::True) => Tri::True,
            _ => Tri::Unknown,
        }
    }
    fn or(self, other: Tri) -> Tri {
        match (self, other) {
            (Tri::True, _) | (_, Tri::True) => Tri::True,
            (Tri::False, Tri::False) => Tri::False,
            _ => Tri::Unknown,
        }
    }
}

pub(super) static NULL: Value = Value::Null;

/// Whether the document satisfies the filter (see the module docs for the semantics).
pub fn matches(filter: &Filter, doc: &Value) -> bool {
    eval(filter, doc) == Tri::True
}

pub(super) fn eval(filter: &Filter, doc: &Value) -> Tri {
    match filter {
        Filter::And(parts) => {
            let mut acc = Tri::True;
            for part in parts {
                acc = acc.and(eval(part, doc));
                if acc == Tri::False {
                    break;
                }
            }
            acc
        }
        Filter::Or(parts) => {
            let mut acc = Tri::False;
            for part in parts {
                acc = acc.or(eval(part, doc));
                if acc == Tri::True {
                    break;
                }
            }
            acc
        }
        Filter::Not(inner) => eval(inner, doc).not(),
        Filter::Field { path, op, value } => {
            let mut leaves = Vec::new();
            collect(doc, path, &mut leaves);
            let mut acc = Tri::False;
            for leaf in leaves {
                acc = acc.or(eval_leaf(scalar_of(leaf), *op, value));
                if acc == Tri::True {
                    break;
                }
            }
            acc
        }
    }
}

/// The values at `path`, through arrays (an empty array or a missing key yields null).
pub(super) fn collect<'a, S: AsRef<str>>(value: &'a Value, path: &[S], out: &mut Vec<&'a Value>) {
    match value {
        Value::Array(items) => {
            if items.is_empty() {
                out.push(&NULL);
            }
            for item in items {
                collect(item, path, out);
            }
        }
        _ => match path.split_first() {
            None => out.push(value),
            Some((first, rest)) => match value {
                Value::Object(map) => match map.get(first.as_ref()) {
                    Some(child) => collect(child, rest, out),
                    None => out.push(&NULL),
                },
                _ => out.push(&NULL),
            },
        },
    }
}

/// A relation or media object stands for its id.
pub(super) fn scalar_of(value: &Value) -> &Value {
    match value {
        Value::Object(map) => map.get("id").unwrap_or(value),
        _ => value,
    }
}

pub(super) fn eval_leaf(leaf: &Value, op: Op, operand: &FilterValue) -> Tri {
    match op {
        Op::Null | Op::NotNull => {
            let want_null = match operand {
                FilterValue::Bool(flag) => *flag,
                _ => true,
            };
            let want_null = if op == Op::Null { want_null } else { !want_null };
            Tri::from(leaf.is_null() == want_null)
        }
        Op::In | Op::NotIn => {
            if leaf.is_null() {
                return Tri::Unknown;
            }
            let items = match operand {
                FilterValue::List(items) => items.as_slice(),
                other => std::slice::from_ref(other),
            };
            let mut hit = false;
            let mut has_null = false;
            for item in items {
                match item {
                    FilterValue::Text(text) => hit |= compare(leaf, text) == Some(Ordering::Equal),
                    FilterValue::Null => has_null = true,
                    FilterValue::Bool(_) | FilterValue::List(_) => {}
                }
            }
            let found = match (hit, has_null) {
                (true, _) => Tri::True,
                (false, true) => Tri::Unknown,
                (false, false) => Tri::False,
            };
            if op == Op::In { found } else { found.not() }
        }
        Op::Between => match operand {
            FilterValue::List(items) => match items.as_slice() {
                [FilterValue::Text(low), FilterValue::Text(high)] => {
                    if leaf.is_null() {
                        return Tri::Unknown;
                    }
                    match (compare(leaf, low), compare(leaf, high)) {
                        (Some(above), Some(below)) => Tri::from(above != Ordering::Less && below != Ordering::Greater),
                        _ => Tri::False,
                    }
                }
                _ => Tri::Unknown,
            },
            _ => Tri::Unknown,
        },
        _ => match operand {
            FilterValue::List(items) => items.iter().fold(Tri::False, |acc, item| acc.or(eval_leaf(leaf, op, item))),
            FilterValue::Null => match op {
                Op::Eq | Op::Eqi => Tri::from(leaf.is_null()),
                Op::Ne | Op::Nei => Tri::from(!leaf.is_null()),
                _ => Tri::Unknown,
            },
            FilterValue::Bool(flag) => eval_leaf(leaf, op, &FilterValue::Text(flag.to_string())),
            FilterValue::Text(text) => {
                if leaf.is_null() {
                    Tri::Unknown
                } else {
                    Tri::from(scalar_op(leaf, op, text))
                }
            }
        },
    }
}

pub(super) fn scalar_op(leaf: &Value, op: Op, text: &str) -> bool {
    let ordering = || compare(leaf, text);
    let contains = |haystack: &str, needle: &str| haystack.contains(needle);
    let starts = |haystack: &str, needle: &str| haystack.starts_with(needle);
    let ends = |haystack: &str, needle: &str| haystack.ends_with(needle);
    match op {
        Op::Eq => ordering() == Some(Ordering::Equal),
        Op::Ne => ordering() != Some(Ordering::Equal),
        Op::Eqi => equal_ignoring_case(leaf, text),
        Op::Nei => !equal_ignoring_case(leaf, text),
        Op::Lt => ordering() == Some(Ordering::Less),
        Op::Lte => matches!(ordering(), Some(Ordering::Less | Ordering::Equal)),
        Op::Gt => ordering() == Some(Ordering::Greater),
        Op::Gte => matches!(ordering(), Some(Ordering::Greater | Ordering::Equal)),
        Op::Contains => text_test(leaf, text, false, contains),
        Op::NotContains => !text_test(leaf, text, false, contains),
        Op::Containsi => text_test(leaf, text, true, contains),
        Op::NotContainsi => !text_test(leaf, text, true, contains),
        Op::StartsWith => text_test(leaf, text, false, starts),
        Op::StartsWithi => text_test(leaf, text, true, starts),
        Op::EndsWith => text_test(leaf, text, false, ends),
        Op::EndsWithi => text_test(leaf, text, true, ends),
        Op::In | Op::NotIn | Op::Between | Op::Null | Op::NotNull => false,
    }
}

/// Orders a stored value against filter text typed like the stored value.
pub(super) fn compare(leaf: &Value, text: &str) -> Option<Ordering> {
    match leaf {
        Value::Number(number) => compare_number(number, text),
        Value::String(stored) => Some(stored.as_str().cmp(text)),
        Value::Bool(stored) => parse_bool(text).map(|wanted| stored.cmp(&wanted)),
        _ => None,
    }
}

pub(super) fn compare_number(number: &serde_json::Number, text: &str) -> Option<Ordering> {
    if let Ok(wanted) = text.parse::<i64>() {
        if let Some(stored) = number.as_i64() {
            return Some(stored.cmp(&wanted));
        }
        if number.as_u64().is_some() {
            // A u64 beyond i64::MAX is larger than any i64.
            return Some(Ordering::Greater);
        }
    }
    let wanted = text.parse::<f64>().ok().filter(|wanted| wanted.is_finite())?;
    number.as_f64()?.partial_cmp(&wanted)
}

pub(super) fn text_of(leaf: &Value) -> Option<Cow<'_, str>> {
    match leaf {
        Value::String(text) => Some(Cow::Borrowed(text)),
        Value::Number(number) => Some(Cow::Owned(number.to_string())),
        Value::Bool(flag) => Some(Cow::Owned(flag.to_string())),
        _ => None,
    }
}

pub(super) fn equal_ignoring_case(leaf: &Value, text: &str) -> bool {
    match leaf {
        Value::String(stored) => stored.to_lowercase() == text.to_lowercase(),
        _ => compare(leaf, text) == Some(Ordering::Equal),
    }
}

pub(super) fn text_test(leaf: &Value, needle: &str, ignore_case: bool, test: impl Fn(&str, &str) -> bool) -> bool {
    let Some(haystack) = text_of(leaf) else {
        return false;
    };
    if ignore_case { test(&haystack.to_lowercase(), &needle.to_lowercase()) } else { test(&haystack, needle) }
}
