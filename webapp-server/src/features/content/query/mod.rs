//! The query grammar and in-memory evaluator of the built-in content API (SPEC §7 "Headless
//! content service", issue 4): the Strapi v4 REST dialect, so that the client or an operator's
//! own tooling cannot tell it from Strapi for what it uses.
//!
//! The content service keeps each content type's entries as JSON documents; a REST query is
//! [`parse`]d into a [`ContentQuery`], the entries are kept with [`matches`], ordered with
//! [`sort_docs`], cut with [`paginate`] and answered with [`shape_entry`]. [`flatten`] undoes the
//! REST wrappers the way the client does (SPEC §3), for the server's own use of content.
//!
//! # Parsing: the qs bracket syntax, strictly
//!
//! Strapi parses query strings with `qs` (`depth: 20`, `arrayLimit: 100`, `strictNullHandling`).
//! [`parse`] follows the same shape rules but refuses what `qs` would silently reinterpret, so a
//! malformed query is a 400 with a reason ([`QueryError`] names the parameter), never a 500:
//!
//! - The string is split on `&` (empty pieces skipped, a leading `?` dropped), each piece on its
//!   first `=`; a piece without `=` is a *null* value (`strictNullHandling`), `a=` is an empty
//!   string. Keys and values are percent-decoded with `+` as space; a malformed escape (`%G1`, a
//!   trailing `%`) or bytes that are not UTF-8 (`%FF`) are errors (qs would keep the raw text).
//!   A piece whose name is empty (`=x`) is skipped, as qs does.
//! - A key is `name` followed by `[segment]`s. A `]` without `[`, a `[` without `]`, a `[` inside
//!   brackets, text after a `]`, brackets without a name, more than 20 bracket levels, an all-digit
//!   segment above 1000 or with a leading zero are errors, in *every* key, known or not. qs would
//!   instead fold such keys into odd object keys.
//! - `[]` may only end a key (`fields[]=a&fields[]=b` appends, as qs does); an empty `[]` in the
//!   middle (`filters[$or][][slug]=x`) needs an index and is an error.
//! - Repeating a plain key (`sort=a&sort=b`) makes a list, as in qs. A name used both as a plain
//!   value and with brackets (`populate=*&populate[0]=logo`) is an error (qs merges unpredictably).
//! - Indexed lists are read in index order with gaps ignored (qs compacts sparse arrays).
//! - More than 1000 parameters is an error (qs would silently drop the rest), and so is a
//!   `populate`, `fields` or `sort` list of more than 1000 items (commas included), which keeps
//!   every step of parsing and evaluation far from quadratic blow-ups.
//! - Decoding and bracket errors are reported for every parameter, known or not.
//! - Unknown top-level names are ignored, as Strapi does; unknown keys *inside* `pagination`, a
//!   populate node or a filter operator position are errors.
//! - Attribute names must look like Strapi attribute names: an ASCII letter or `_`, then letters,
//!   digits, `_` or `-` (at most 128 bytes). Dotted paths (`sort=author.name`,
//!   `populate=seo.metaImage`) have at most 20 segments.
//!
//! # Filters
//!
//! `filters[field][$op]=value`, `filters[relation][field][$op]=value` (a path), `$and`/`$or` over
//! indexed lists and `$not` over an object, at the root or under a field. A plain value means
//! `$eq` (`filters[slug]=home`), several values (`filters[slug][0]=a&filters[slug][1]=b` or the
//! key repeated) mean `$in` — both as in Strapi. Several operators on one field are and-ed. An
//! unknown `$op` is an error naming the parameter. `$and`/`$or` are also accepted under a scalar
//! field (`filters[title][$or][0][$eq]=a`) where Strapi's database layer would throw.
//!
//! Operator values: `$in`/`$notIn` take a list or a single value; `$between` exactly two values;
//! `$null`/`$notNull` take `true|t|1|false|f|0` (Strapi casts any other non-empty text to `true`;
//! we refuse it). Any other operator given a list is or-ed over its items, as Strapi's
//! `applyOperator` does (`$eq` with two values matches either). A key without `=`
//! (`filters[title][$eq]`) is a null operand: `$eq`/`$eqi` null is "is null", `$ne`/`$nei` null is
//! "is not null", as in Strapi.
//!
//! # Evaluation ([`matches`])
//!
//! Strapi answers filters with SQL, so evaluation uses SQL's three-valued logic and the result is
//! "matches" only when the condition is true: a null or missing field never satisfies a comparison
//! (`$ne`, `$notIn`, `$notContains`, … exclude nulls too, as they do on Strapi), `$not` of
//! an unknown stays unknown, and only `$null`, `$notNull`, `$eq null` and `$ne null` see nulls.
//!
//! - Paths: a missing attribute is null; a path through an array matches if any element matches
//!   (join semantics); an empty array behaves like a null row (left join). Each condition looks
//!   at the array on its own, so `tags.name = a AND tags.slug = b` may be met by two different
//!   tags (Strapi may join once and require one row).
//! - A path that ends on an object (a relation or media) compares that object's `id`, as Strapi
//!   does for `filters[author]=3`.
//! - The filter text is typed by the stored value: against a number it is parsed as a number
//!   (integers exactly, otherwise as `f64`; text that is not a number never compares), against a
//!   boolean as `true|t|1|false|f|0`, against a string it is compared byte-wise (SQLite's BINARY
//!   collation). ISO-8601 timestamps therefore compare correctly when written in the same format.
//! - `$contains`, `$startsWith`, `$endsWith` and their negations are case-sensitive (Strapi's
//!   `LIKE` on Postgres; SQLite's `LIKE` would ignore ASCII case); the `…i` forms and `$eqi`/`$nei`
//!   compare Unicode-lowercased text (Strapi lowercases with SQL `LOWER`). `LIKE` wildcards in the
//!   operand (`%`, `_`) are literal here. Numbers and booleans are matched through their text.
//! - Attributes unknown to the schema are simply null: validating names against the content type
//!   is the caller's business.
//!
//! # Sorting ([`sort_docs`])
//!
//! `sort=title`, `sort=title:desc`, `sort=a:asc,b:desc`, `sort[0]=order:desc&sort[1]=id`, the
//! object forms `sort[title]=asc` and `sort[author][name]=desc`, and dotted relation paths
//! (`author.name`). The direction is case-insensitive and defaults to ascending; items are trimmed.
//! Sorting is stable and follows SQLite (Strapi's default database): nulls first when ascending,
//! last when descending; null < booleans and numbers (compared numerically, `false`=0) < strings
//! (byte-wise) < anything else. A path through an array sorts by its first non-null element.
//! With no sort the caller's order (Strapi: id order) is kept.
//!
//! # Pagination ([`paginate`])
//!
//! Page mode (`pagination[page]`, `pagination[pageSize]`; the default, page 1 of 25) or offset mode
//! (`pagination[start]`, `pagination[limit]`); mixing them is refused like Strapi ("expected either
//! start/limit or page/pageSize"). Values must be integers (Strapi turns text into `NaN` and
//! fails later); out-of-range integers are clamped as Strapi clamps them: page < 1 → 1,
//! pageSize/limit < 1 → 1, start < 0 → 0. `pageSize` and `limit` are capped at [`MAX_PAGE_SIZE`]
//! (100, Strapi's usual `api.rest.maxLimit`); `limit=-1` means "all", capped at [`MAX_UNLIMITED`]
//! (1000) and reported as that limit in the meta. `pagination[withCount]` takes
//! `true|t|1|false|f|0` like Strapi; without the count, the meta has no `total` (nor `pageCount`).
//!
//! # Populate
//!
//! `populate=*` populates every relation, media, component and dynamic zone one level deep (their
//! own relations, media and components are not populated), exactly like Strapi. `populate=a,b`,
//! `populate[0]=a` and dotted `populate=seo.metaImage` name attributes; the object form
//! `populate[menu][populate][items]=*` carries per-attribute `populate`, `fields`, `filters`,
//! `sort` and the dynamic-zone fragments `on[component.uid]`; `populate[logo]=true|t|1|*` and
//! `false|f|0` switch one attribute on or off (other text is refused where Strapi would cast it to
//! `true`). Unknown node options (including Strapi's `count` and nested pagination) are refused.
//! A lone `*` inside a list (`populate[0]=*`) is taken as `populate=*`; `*` mixed with names is an
//! error; an empty `populate=` populates nothing.
//!
//! `populate=deep` / `populate=deep,N` follow `strapi-plugin-populate-deep`, which operators use
//! on Strapi: the depth (default 5, at most 20 here) counts the entry itself, so attributes are
//! populated N−1 levels down — `deep,1` populates nothing, `deep,2` equals `*`. Only the top-level
//! `populate` understands `deep`; nested, `deep` is an ordinary attribute name, as on Strapi.
//!
//! # Fields, locale, publication state
//!
//! `fields=title,slug` or `fields[0]=title`: only those scalar attributes (plus `id`, always) are
//! returned; populated relations, media and components are still returned, as in Strapi.
//! `fields=*` means all. `locale` must be a locale code (letters, digits, `-`, `_`, at most 35
//! bytes; `all` passes through); an empty `locale=` means the default locale. `publicationState`
//! is `live` (default) or `preview`, anything else is refused with Strapi's message. Acting on
//! them (keeping only entries with a `publishedAt` when live, falling back to the default locale)
//! is the content service's job: this module only parses them.
//!
//! # Shaping ([`shape_entry`]) and storage form
//!
//! Stored entries are "flat": attributes at the top with `id`; a relation is the related entry
//! (an object with `id` and its attributes), an array of them, or null; media is an upload-file
//! object (`id`, `url`, `name`, `alternativeText`, `width`, `height`, `mime`, and optionally the
//! other Strapi file fields); a component is an object (with its `id`), a repeatable component or
//! dynamic zone an array of them (dynamic-zone items carry `__component`). The caller says which
//! attribute is what through `relation_keys`, called with the attribute's dotted path from the
//! entry root (array indices dropped, so top-level attributes are their plain name, the media
//! inside component `seo` is `seo.metaImage`; dynamic-zone components share the zone's path).
//!
//! Output: `{"id", "attributes"}`; scalars kept (or only `fields`); relations `{"data": entry}`,
//! `{"data": [entries]}` or `{"data": null}`; media `{"data": {"id", "attributes"}}` with `url`,
//! `name`, `alternativeText`, `width`, `height`, `mime` always present (null when unknown) and the
//! other Strapi file fields (`caption`, `formats`, `hash`, `ext`, `size`, `previewUrl`, `provider`,
//! `provider_metadata`, `createdAt`, `updatedAt`) when stored — other stored keys are dropped;
//! components as plain objects with their `id` (`__component` always kept). Relations, media and
//! components are omitted unless populated, exactly like Strapi. An attribute named in an object
//! or list populate but absent from the document comes out as `{"data": null}` (relation, media)
//! or `null` (component); with `*`/`deep` only stored keys are seen, so the service should store
//! every schema attribute (null when unset). A populate node's `filters` and `sort` apply to the
//! related entries or component items (a single one that fails the filter becomes null). A
//! dynamic-zone item whose component is not listed in a non-empty `on` keeps only its scalars.
//!
//! Key order inside objects is whatever `serde_json::Map` keeps (sorted without serde_json's
//! `preserve_order` feature); JSON clients do not depend on it.

mod filter;
mod parse;
mod shape;
mod sort;
#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;

pub use filter::matches;
pub use parse::{fuzz_one, parse};
pub use shape::{flatten, shape_entry};
pub use sort::{paginate, sort_docs};

use serde::Serialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// Page size when none is asked for (Strapi's `api.rest.defaultLimit`).
pub const DEFAULT_PAGE_SIZE: u64 = 25;
/// Largest `pageSize` / `limit` honoured (Strapi's usual `api.rest.maxLimit`).
pub const MAX_PAGE_SIZE: u64 = 100;
/// What `pagination[limit]=-1` ("all") is capped at.
pub const MAX_UNLIMITED: u64 = 1000;
/// Depth of `populate=deep` without a number (the plugin's default).
pub const DEFAULT_DEEP_DEPTH: u8 = 5;
/// Largest depth accepted in `populate=deep,N`.
pub const MAX_DEEP_DEPTH: u8 = 20;
/// Most bracket levels in one key, and most segments in a dotted path (qs `depth`).
pub const MAX_NESTING: usize = 20;
/// Most `&`-separated parameters in one query string (qs `parameterLimit`).
pub const MAX_PARAMS: usize = 1000;
/// Largest array index accepted in a key.
pub const MAX_INDEX: u64 = 1000;
/// Most items in one `populate`, `fields` or `sort` list (comma-separated items included).
pub const MAX_LIST_ITEMS: usize = 1000;

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/// A parsed content-API query.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ContentQuery {
    pub filters: Option<Filter>,
    pub populate: Populate,
    /// Dotted field path and direction, most significant first.
    pub sort: Vec<(String, SortDir)>,
    pub pagination: Pagination,
    /// Scalar attributes to return (`id` is always returned); `None` means all.
    pub fields: Option<Vec<String>>,
    pub locale: Option<String>,
    pub publication_state: PublicationState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortDir {
    Asc,
    Desc,
}

/// A filter tree. `Field` paths go from the entry root (`["author", "name"]`).
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    And(Vec<Filter>),
    Or(Vec<Filter>),
    Not(Box<Filter>),
    Field { path: Vec<String>, op: Op, value: FilterValue },
}

/// Attribute-level operators of Strapi v4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Eqi,
    Ne,
    Nei,
    Lt,
    Lte,
    Gt,
    Gte,
    In,
    NotIn,
    Contains,
    NotContains,
    Containsi,
    NotContainsi,
    Null,
    NotNull,
    Between,
    StartsWith,
    StartsWithi,
    EndsWith,
    EndsWithi,
}

impl Op {
    pub const ALL: [Op; 21] = [
        Op::Eq,
        Op::Eqi,
        Op::Ne,
        Op::Nei,
        Op::Lt,
        Op::Lte,
        Op::Gt,
        Op::Gte,
        Op::In,
        Op::NotIn,
        Op::Contains,
        Op::NotContains,
        Op::Containsi,
        Op::NotContainsi,
        Op::Null,
        Op::NotNull,
        Op::Between,
        Op::StartsWith,
        Op::StartsWithi,
        Op::EndsWith,
        Op::EndsWithi,
    ];

    /// The operator as written in a query (`$eq`).
    pub fn name(self) -> &'static str {
        match self {
            Op::Eq => "$eq",
            Op::Eqi => "$eqi",
            Op::Ne => "$ne",
            Op::Nei => "$nei",
            Op::Lt => "$lt",
            Op::Lte => "$lte",
            Op::Gt => "$gt",
            Op::Gte => "$gte",
            Op::In => "$in",
            Op::NotIn => "$notIn",
            Op::Contains => "$contains",
            Op::NotContains => "$notContains",
            Op::Containsi => "$containsi",
            Op::NotContainsi => "$notContainsi",
            Op::Null => "$null",
            Op::NotNull => "$notNull",
            Op::Between => "$between",
            Op::StartsWith => "$startsWith",
            Op::StartsWithi => "$startsWithi",
            Op::EndsWith => "$endsWith",
            Op::EndsWithi => "$endsWithi",
        }
    }

    /// The operator named `name` (`$eq`), if any. Case-sensitive, like Strapi.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.iter().copied().find(|op| op.name() == name)
    }
}

/// The operand of a filter condition, still untyped text: it is typed against each stored value.
#[derive(Debug, Clone, PartialEq)]
pub enum FilterValue {
    /// A key without `=` (`strictNullHandling`).
    Null,
    /// The operand of `$null` / `$notNull`.
    Bool(bool),
    Text(String),
    /// `$in`, `$notIn`, `$between`, or several operands or-ed. Items are `Null` or `Text`.
    List(Vec<FilterValue>),
}

/// What to populate at one level.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Populate {
    #[default]
    None,
    /// `*`: every relation, media, component and dynamic zone, one level.
    All,
    /// `deep,N` (strapi-plugin-populate-deep): everything, N−1 levels down.
    Deep(u8),
    /// Named attributes, each with its own options.
    Fields(BTreeMap<String, PopulateNode>),
}

/// Options of one populated attribute.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PopulateNode {
    pub populate: Populate,
    pub fields: Option<Vec<String>>,
    pub filters: Option<Filter>,
    pub sort: Vec<(String, SortDir)>,
    /// Dynamic-zone fragments: component uid → options for items of that component.
    pub on: BTreeMap<String, PopulateNode>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pagination {
    pub mode: PageMode,
    pub with_count: bool,
}

impl Default for Pagination {
    fn default() -> Self {
        Pagination { mode: PageMode::Page { page: 1, page_size: DEFAULT_PAGE_SIZE }, with_count: true }
    }
}

/// Resolved pagination (clamped and capped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageMode {
    Page { page: u64, page_size: u64 },
    Offset { start: u64, limit: u64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PublicationState {
    #[default]
    Live,
    Preview,
}

/// `meta.pagination` exactly as Strapi writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PaginationMeta {
    Page(PageMeta),
    Offset(OffsetMeta),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageMeta {
    pub page: u64,
    pub page_size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OffsetMeta {
    pub start: u64,
    pub limit: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
}

/// What an attribute is, from the content type's schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelationKind {
    Scalar,
    /// A component, repeatable component or dynamic zone.
    Component,
    Relation,
    Media,
}

/// A refused query: the parameter (decoded, in bracket form) and a human reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    pub param: String,
    pub reason: String,
}

impl QueryError {
    fn new(param: impl Into<String>, reason: impl Into<String>) -> Self {
        QueryError { param: param.into(), reason: reason.into() }
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid query parameter `{}`: {}", self.param, self.reason)
    }
}

impl std::error::Error for QueryError {}
