//! Ordering entries and cutting a page out of them.

use super::filter::{NULL, collect, scalar_of};
use super::*;

/// Sorts documents in place, stably, by the given dotted paths (see the module docs).
pub fn sort_docs(docs: &mut [Value], sort: &[(String, SortDir)]) {
    if sort.is_empty() {
        return;
    }
    let keys = sort_keys(sort);
    docs.sort_by(|a, b| compare_docs(a, b, &keys));
}

pub(super) type SortKeys<'a> = Vec<(Vec<&'a str>, SortDir)>;

pub(super) fn sort_keys(sort: &[(String, SortDir)]) -> SortKeys<'_> {
    sort.iter().map(|(field, dir)| (field.split('.').collect(), *dir)).collect()
}

pub(super) fn compare_docs(a: &Value, b: &Value, keys: &SortKeys<'_>) -> Ordering {
    for (path, dir) in keys {
        let ordering = compare_sort_values(sort_value(a, path), sort_value(b, path));
        let ordering = if *dir == SortDir::Desc { ordering.reverse() } else { ordering };
        if ordering != Ordering::Equal {
            return ordering;
        }
    }
    Ordering::Equal
}

pub(super) fn sort_value<'a>(doc: &'a Value, path: &[&str]) -> &'a Value {
    let mut leaves = Vec::new();
    collect(doc, path, &mut leaves);
    leaves.into_iter().map(scalar_of).find(|leaf| !leaf.is_null()).unwrap_or(&NULL)
}

pub(super) fn compare_sort_values(a: &Value, b: &Value) -> Ordering {
    fn rank(value: &Value) -> u8 {
        match value {
            Value::Null => 0,
            Value::Bool(_) | Value::Number(_) => 1,
            Value::String(_) => 2,
            Value::Array(_) | Value::Object(_) => 3,
        }
    }
    fn numeric(value: &Value) -> Option<f64> {
        match value {
            Value::Bool(flag) => Some(if *flag { 1.0 } else { 0.0 }),
            Value::Number(number) => number.as_f64(),
            _ => None,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => numeric(a).zip(numeric(b)).and_then(|(x, y)| x.partial_cmp(&y)).unwrap_or(Ordering::Equal),
        },
        (Value::String(x), Value::String(y)) => x.cmp(y),
        _ if rank(a) == 1 && rank(b) == 1 => {
            numeric(a).zip(numeric(b)).and_then(|(x, y)| x.partial_cmp(&y)).unwrap_or(Ordering::Equal)
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

/// The slice of `total` sorted entries to return, and `meta.pagination` as Strapi writes it.
pub fn paginate(total: usize, pagination: &Pagination) -> (Range<usize>, PaginationMeta) {
    let total_count = u64::try_from(total).unwrap_or(u64::MAX);
    let counted = |value: u64| pagination.with_count.then_some(value);
    match pagination.mode {
        PageMode::Page { page, page_size } => {
            let page = page.max(1);
            let page_size = page_size.max(1);
            let start = (page - 1).saturating_mul(page_size);
            let meta = PageMeta {
                page,
                page_size,
                page_count: counted(total_count.div_ceil(page_size)),
                total: counted(total_count),
            };
            (clamp_range(start, page_size, total), PaginationMeta::Page(meta))
        }
        PageMode::Offset { start, limit } => {
            let meta = OffsetMeta { start, limit, total: counted(total_count) };
            (clamp_range(start, limit, total), PaginationMeta::Offset(meta))
        }
    }
}

pub(super) fn clamp_range(start: u64, len: u64, total: usize) -> Range<usize> {
    let start = usize::try_from(start).unwrap_or(usize::MAX).min(total);
    let end = start.saturating_add(usize::try_from(len).unwrap_or(usize::MAX)).min(total);
    start..end
}
