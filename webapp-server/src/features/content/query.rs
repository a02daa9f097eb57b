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

// ---------------------------------------------------------------------------------------------
// Parsing: query string → generic tree
// ---------------------------------------------------------------------------------------------

/// The qs-like intermediate tree: a name holds either plain values (in order) or bracketed keys
/// (in first-seen order, like a JavaScript object).
#[derive(Debug)]
enum Node {
    Values(Vec<Option<String>>),
    Map(Vec<(String, Node)>),
}

type Entries = [(String, Node)];

/// Parses a raw (still percent-encoded) query string, without the path. See the module docs.
pub fn parse(query: &str) -> Result<ContentQuery, QueryError> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut root: Vec<(String, Node)> = Vec::new();
    let mut count = 0usize;
    for piece in query.split('&') {
        if piece.is_empty() {
            continue;
        }
        count += 1;
        let (raw_key, raw_value) = match piece.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (piece, None),
        };
        if count > MAX_PARAMS {
            return Err(QueryError::new(
                param_name(raw_key),
                format!("the query has more than {MAX_PARAMS} parameters"),
            ));
        }
        let key =
            decode(raw_key).map_err(|reason| QueryError::new(param_name(raw_key), format!("its name {reason}")))?;
        if key.is_empty() {
            continue;
        }
        let value = match raw_value {
            Some(raw) => {
                Some(decode(raw).map_err(|reason| QueryError::new(param_name(&key), format!("its value {reason}")))?)
            }
            None => None,
        };
        let segments = split_key(&key).map_err(|reason| QueryError::new(param_name(&key), reason))?;
        insert(&mut root, &segments, value).map_err(|reason| QueryError::new(param_name(&key), reason))?;
    }
    interpret(&root)
}

/// Runs one fuzz input through [`parse`] (for a cargo-fuzz target); must never panic.
pub fn fuzz_one(data: &[u8]) {
    let _ = parse(&String::from_utf8_lossy(data));
}

/// Percent-decodes with `+` as space; refuses malformed escapes and non-UTF-8 bytes.
fn decode(raw: &str) -> Result<String, String> {
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return Err("has a malformed percent-escape (expected `%` and two hex digits)".into());
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    let spaced: Cow<'_, str> = if raw.contains('+') { Cow::Owned(raw.replace('+', " ")) } else { Cow::Borrowed(raw) };
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .map(Cow::into_owned)
        .map_err(|_| "is not valid UTF-8 once percent-decoded".to_string())
}

/// Splits `name[a][b]` into `["name", "a", "b"]`, refusing malformed brackets.
fn split_key(key: &str) -> Result<Vec<String>, String> {
    let (root, mut rest) = match key.find('[') {
        Some(at) => (&key[..at], &key[at..]),
        None => (key, ""),
    };
    if root.contains(']') {
        return Err("has a `]` without a matching `[`".into());
    }
    if root.is_empty() {
        return Err("has brackets without a name before them".into());
    }
    let mut segments = vec![root.to_string()];
    while !rest.is_empty() {
        let Some(open) = rest.strip_prefix('[') else {
            return Err(format!("has unexpected text `{}` after a `]`", shown(rest)));
        };
        let Some(close) = open.find(']') else {
            return Err("has a `[` without a matching `]`".into());
        };
        let inner = &open[..close];
        if inner.contains('[') {
            return Err("has a `[` inside brackets".into());
        }
        if segments.len() > MAX_NESTING {
            return Err(format!("is nested deeper than {MAX_NESTING} bracket levels"));
        }
        if !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit()) {
            if inner.len() > 1 && inner.starts_with('0') {
                return Err(format!("has an array index `{}` with a leading zero", shown(inner)));
            }
            if inner.parse::<u64>().map_or(true, |index| index > MAX_INDEX) {
                return Err(format!("has an array index {} larger than {MAX_INDEX}", shown(inner)));
            }
        }
        segments.push(inner.to_string());
        rest = &open[close + 1..];
    }
    Ok(segments)
}

fn insert(root: &mut Vec<(String, Node)>, segments: &[String], value: Option<String>) -> Result<(), String> {
    // A trailing `[]` appends, which is what a plain key does too.
    let segments = match segments.split_last() {
        Some((last, rest)) if last.is_empty() && !rest.is_empty() => rest,
        _ => segments,
    };
    let Some((last, parents)) = segments.split_last() else {
        return Ok(());
    };
    if last.is_empty() || parents.iter().any(String::is_empty) {
        return Err("has empty brackets `[]` where an index is needed (like `[0]`)".into());
    }
    let mut current = root;
    for segment in parents {
        let at = position_or_push(current, segment, || Node::Map(Vec::new()));
        match &mut current[at].1 {
            Node::Map(children) => current = children,
            Node::Values(_) => return Err(mixed(segment)),
        }
    }
    let at = position_or_push(current, last, || Node::Values(Vec::new()));
    match &mut current[at].1 {
        Node::Values(values) => {
            values.push(value);
            Ok(())
        }
        Node::Map(_) => Err(mixed(last)),
    }
}

fn position_or_push(entries: &mut Vec<(String, Node)>, key: &str, make: impl FnOnce() -> Node) -> usize {
    match entries.iter().position(|(k, _)| k == key) {
        Some(at) => at,
        None => {
            entries.push((key.to_string(), make()));
            entries.len() - 1
        }
    }
}

fn mixed(segment: &str) -> String {
    format!("`{}` is given both as a plain value and with bracketed keys", shown(segment))
}

/// Shortens user text quoted in a reason.
fn shown(text: &str) -> String {
    truncated(text, 80)
}

/// A parameter name for an error, shortened only when absurdly long.
fn param_name(text: &str) -> String {
    truncated(text, 256)
}

fn truncated(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

// ---------------------------------------------------------------------------------------------
// Parsing: tree → ContentQuery
// ---------------------------------------------------------------------------------------------

fn interpret(root: &Entries) -> Result<ContentQuery, QueryError> {
    let mut query = ContentQuery::default();
    for (name, node) in root {
        match name.as_str() {
            "filters" => query.filters = Some(parse_filter(node, &[], "filters")?),
            "populate" => query.populate = parse_populate(node, "populate", true)?,
            "sort" => query.sort = parse_sort(node, "sort")?,
            "pagination" => query.pagination = parse_pagination(node)?,
            "fields" => query.fields = parse_fields(node, "fields")?,
            "locale" => query.locale = parse_locale(node)?,
            "publicationState" => {
                query.publication_state = match required(node, "publicationState")? {
                    "live" => PublicationState::Live,
                    "preview" => PublicationState::Preview,
                    other => {
                        return Err(QueryError::new(
                            "publicationState",
                            format!(
                                "Invalid publicationState. Expected one of 'preview','live' received: {}.",
                                shown(other)
                            ),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(query)
}

fn sub(param: &str, key: impl fmt::Display) -> String {
    format!("{param}[{key}]")
}

/// The single value of a plain parameter (`None` for a key without `=`).
fn single<'a>(node: &'a Node, param: &str) -> Result<Option<&'a str>, QueryError> {
    match node {
        Node::Values(values) if values.len() == 1 => Ok(values.first().and_then(Option::as_deref)),
        Node::Values(_) => Err(QueryError::new(param, "is given more than once")),
        Node::Map(_) => Err(QueryError::new(param, "expects a single value, not bracketed keys")),
    }
}

fn required<'a>(node: &'a Node, param: &str) -> Result<&'a str, QueryError> {
    single(node, param)?.ok_or_else(|| QueryError::new(param, "needs a value (`name=value`)"))
}

/// The entries of a map whose keys are all array indices, in index order.
fn index_list(entries: &Entries) -> Option<Vec<(u64, &Node)>> {
    let mut items = Vec::with_capacity(entries.len());
    for (key, node) in entries {
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        items.push((key.parse::<u64>().ok()?, node));
    }
    items.sort_by_key(|(index, _)| *index);
    Some(items)
}

/// A value or a list of values (`a=x&a=y`, `a[0]=x&a[1]=y`, `a[]=x`).
fn string_list(node: &Node, param: &str) -> Result<Vec<String>, QueryError> {
    match node {
        Node::Values(values) => values
            .iter()
            .map(|value| value.clone().ok_or_else(|| QueryError::new(param, "needs a value (`name=value`)")))
            .collect(),
        Node::Map(entries) => {
            let items = index_list(entries)
                .ok_or_else(|| QueryError::new(param, "expects a value or an indexed list like `[0]=…`"))?;
            let mut out = Vec::new();
            for (index, item) in items {
                let item_param = sub(param, index);
                match item {
                    Node::Values(_) => out.extend(string_list(item, &item_param)?),
                    Node::Map(_) => return Err(QueryError::new(item_param, "expects a value, not nested keys")),
                }
            }
            Ok(out)
        }
    }
}

/// The trimmed comma-separated items of a list of values.
fn comma_items<'a>(values: &'a [String], param: &str) -> Result<Vec<&'a str>, QueryError> {
    let items: Vec<&str> = values.iter().flat_map(|value| value.split(',')).map(str::trim).collect();
    if items.len() > MAX_LIST_ITEMS {
        return Err(QueryError::new(param, format!("lists more than {MAX_LIST_ITEMS} items")));
    }
    Ok(items)
}

fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok && name.len() <= 128 && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn check_name(name: &str, param: &str) -> Result<(), QueryError> {
    if is_name(name) {
        Ok(())
    } else if name.is_empty() {
        Err(QueryError::new(param, "has an empty attribute name"))
    } else {
        Err(QueryError::new(param, format!("`{}` is not a valid attribute name", shown(name))))
    }
}

/// A dotted attribute path (`author.name`).
fn check_path(path: &str, param: &str) -> Result<(), QueryError> {
    if path.split('.').count() > MAX_NESTING {
        return Err(QueryError::new(param, format!("`{}` is nested deeper than {MAX_NESTING} levels", shown(path))));
    }
    path.split('.').try_for_each(|segment| check_name(segment, param))
}

// --- filters ---------------------------------------------------------------------------------

fn parse_filter(node: &Node, prefix: &[String], param: &str) -> Result<Filter, QueryError> {
    let entries = match node {
        Node::Values(values) => {
            if prefix.is_empty() {
                return Err(QueryError::new(
                    param,
                    "expects conditions in brackets, like `filters[field][$eq]=value`, not a plain value",
                ));
            }
            return Ok(implicit_condition(prefix, values));
        }
        Node::Map(entries) => entries,
    };
    if let Some(items) = index_list(entries) {
        // `filters[slug][0]=a&filters[slug][1]=b` is `$in`; a list of objects is an implicit `$and`.
        if !prefix.is_empty() && items.iter().all(|(_, item)| matches!(item, Node::Values(_))) {
            let mut list = Vec::new();
            for (_, item) in &items {
                if let Node::Values(values) = item {
                    list.extend(values.iter().map(operand));
                }
            }
            return Ok(Filter::Field { path: prefix.to_vec(), op: Op::In, value: FilterValue::List(list) });
        }
        let parts = items
            .iter()
            .map(|(index, item)| parse_filter(item, prefix, &sub(param, index)))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(all_of(parts));
    }
    let mut parts = Vec::with_capacity(entries.len());
    for (key, child) in entries {
        let child_param = sub(param, key);
        match key.as_str() {
            "$and" | "$or" => {
                let items = match child {
                    Node::Map(list) => index_list(list),
                    Node::Values(_) => None,
                }
                .ok_or_else(|| {
                    QueryError::new(
                        &child_param,
                        format!("`{key}` expects an indexed list, like `{key}[0][field][$eq]=…`"),
                    )
                })?;
                let subs = items
                    .iter()
                    .map(|(index, item)| parse_filter(item, prefix, &sub(&child_param, index)))
                    .collect::<Result<Vec<_>, _>>()?;
                parts.push(if key == "$and" { Filter::And(subs) } else { Filter::Or(subs) });
            }
            "$not" => parts.push(Filter::Not(Box::new(parse_filter(child, prefix, &child_param)?))),
            operator if operator.starts_with('$') => {
                let op = Op::from_name(operator).ok_or_else(|| {
                    let known: Vec<&str> = Op::ALL.iter().map(|op| op.name()).collect();
                    QueryError::new(
                        &child_param,
                        format!(
                            "unknown operator `{}`; expected $and, $or, $not or one of {}",
                            shown(operator),
                            known.join(", ")
                        ),
                    )
                })?;
                if prefix.is_empty() {
                    return Err(QueryError::new(
                        &child_param,
                        format!("operator `{operator}` must follow a field, like `filters[field][{operator}]=value`"),
                    ));
                }
                let value = operator_value(op, child, &child_param)?;
                parts.push(Filter::Field { path: prefix.to_vec(), op, value });
            }
            name => {
                check_name(name, &child_param)?;
                let mut path = prefix.to_vec();
                path.push(name.to_string());
                parts.push(parse_filter(child, &path, &child_param)?);
            }
        }
    }
    Ok(all_of(parts))
}

fn all_of(mut parts: Vec<Filter>) -> Filter {
    if parts.len() == 1
        && let Some(only) = parts.pop()
    {
        return only;
    }
    Filter::And(parts)
}

fn operand(value: &Option<String>) -> FilterValue {
    match value {
        Some(text) => FilterValue::Text(text.clone()),
        None => FilterValue::Null,
    }
}

/// `filters[slug]=x` is `$eq`; repeated, `$in`.
fn implicit_condition(prefix: &[String], values: &[Option<String>]) -> Filter {
    match values {
        [one] => Filter::Field { path: prefix.to_vec(), op: Op::Eq, value: operand(one) },
        many => Filter::Field {
            path: prefix.to_vec(),
            op: Op::In,
            value: FilterValue::List(many.iter().map(operand).collect()),
        },
    }
}

fn operator_value(op: Op, node: &Node, param: &str) -> Result<FilterValue, QueryError> {
    let raw = match node {
        Node::Values(values) => match values.as_slice() {
            [one] => operand(one),
            many => FilterValue::List(many.iter().map(operand).collect()),
        },
        Node::Map(entries) => {
            let items = index_list(entries).ok_or_else(|| {
                QueryError::new(
                    param,
                    format!("operator `{}` expects a value or an indexed list, not nested keys", op.name()),
                )
            })?;
            let mut list = Vec::new();
            for (index, item) in items {
                match item {
                    Node::Values(values) => list.extend(values.iter().map(operand)),
                    Node::Map(_) => {
                        return Err(QueryError::new(sub(param, index), "expects a value, not nested keys"));
                    }
                }
            }
            FilterValue::List(list)
        }
    };
    match op {
        Op::Null | Op::NotNull => match &raw {
            FilterValue::Text(text) => parse_bool(text).map(FilterValue::Bool),
            _ => None,
        }
        .ok_or_else(|| QueryError::new(param, format!("operator `{}` expects true or false", op.name()))),
        Op::Between => match &raw {
            FilterValue::List(items)
                if items.len() == 2 && items.iter().all(|item| matches!(item, FilterValue::Text(_))) =>
            {
                Ok(raw)
            }
            _ => Err(QueryError::new(
                param,
                "operator `$between` expects exactly two values, like `[$between][0]=low&[$between][1]=high`",
            )),
        },
        Op::In | Op::NotIn => Ok(match raw {
            FilterValue::List(_) => raw,
            single_value => FilterValue::List(vec![single_value]),
        }),
        _ => Ok(raw),
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "true" | "t" | "1" => Some(true),
        "false" | "f" | "0" => Some(false),
        _ => None,
    }
}

// --- populate --------------------------------------------------------------------------------

fn parse_populate(node: &Node, param: &str, top: bool) -> Result<Populate, QueryError> {
    if let Node::Map(entries) = node
        && index_list(entries).is_none()
    {
        let mut map = BTreeMap::new();
        for (key, child) in entries {
            let child_param = sub(param, key);
            check_name(key, &child_param)?;
            if let Some(options) = parse_populate_node(child, &child_param)? {
                map.insert(key.clone(), options);
            }
        }
        return Ok(if map.is_empty() { Populate::None } else { Populate::Fields(map) });
    }
    let items = string_list(node, param)?;
    let names = comma_items(&items, param)?;
    if names.iter().all(|name| name.is_empty()) {
        return Ok(Populate::None);
    }
    match names.as_slice() {
        ["*"] => return Ok(Populate::All),
        ["deep"] if top => return Ok(Populate::Deep(DEFAULT_DEEP_DEPTH)),
        ["deep", depth] if top => {
            return depth
                .parse::<u8>()
                .ok()
                .filter(|depth| (1..=MAX_DEEP_DEPTH).contains(depth))
                .map(Populate::Deep)
                .ok_or_else(|| {
                    QueryError::new(
                        param,
                        format!(
                            "the depth of `deep` must be a whole number from 1 to {MAX_DEEP_DEPTH}, got `{}`",
                            shown(depth)
                        ),
                    )
                });
        }
        ["deep", ..] if top => {
            return Err(QueryError::new(
                param,
                "`deep` takes only an optional depth: `populate=deep` or `populate=deep,5`",
            ));
        }
        _ => {}
    }
    let mut map = BTreeMap::new();
    for name in names {
        if name == "*" {
            return Err(QueryError::new(param, "`*` must be the only value of populate"));
        }
        check_path(name, param)?;
        let path: Vec<&str> = name.split('.').collect();
        insert_populate_path(&mut map, &path);
    }
    Ok(Populate::Fields(map))
}

fn insert_populate_path(map: &mut BTreeMap<String, PopulateNode>, path: &[&str]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let node = map.entry((*first).to_string()).or_default();
    if rest.is_empty() {
        return;
    }
    if node.populate == Populate::None {
        node.populate = Populate::Fields(BTreeMap::new());
    }
    if let Populate::Fields(children) = &mut node.populate {
        insert_populate_path(children, rest);
    }
}

/// One attribute of an object populate: `true`/`*`, `false`, or options.
fn parse_populate_node(node: &Node, param: &str) -> Result<Option<PopulateNode>, QueryError> {
    let entries = match node {
        Node::Values(_) => {
            return match required(node, param)? {
                "*" | "true" | "t" | "1" => Ok(Some(PopulateNode::default())),
                "false" | "f" | "0" => Ok(None),
                other => Err(QueryError::new(
                    param,
                    format!(
                        "expects `*`, `true`, `false` or nested options \
                         (populate, fields, filters, sort, on), got `{}`",
                        shown(other)
                    ),
                )),
            };
        }
        Node::Map(entries) => entries,
    };
    let mut options = PopulateNode::default();
    for (key, child) in entries {
        let child_param = sub(param, key);
        match key.as_str() {
            "populate" => options.populate = parse_populate(child, &child_param, false)?,
            "fields" => options.fields = parse_fields(child, &child_param)?,
            "filters" => options.filters = Some(parse_filter(child, &[], &child_param)?),
            "sort" => options.sort = parse_sort(child, &child_param)?,
            "on" => options.on = parse_on(child, &child_param)?,
            other => {
                return Err(QueryError::new(
                    &child_param,
                    format!(
                        "unknown populate option `{}`; expected populate, fields, filters, sort or on",
                        shown(other)
                    ),
                ));
            }
        }
    }
    Ok(Some(options))
}

/// Dynamic-zone fragments: `on[shared.quote][populate]=*`.
fn parse_on(node: &Node, param: &str) -> Result<BTreeMap<String, PopulateNode>, QueryError> {
    let entries = match node {
        Node::Map(entries) if index_list(entries).is_none() => entries,
        _ => {
            return Err(QueryError::new(param, "`on` expects component uids in brackets, like `on[shared.quote]=*`"));
        }
    };
    let mut map = BTreeMap::new();
    for (uid, child) in entries {
        let child_param = sub(param, uid);
        if uid.split('.').count() > MAX_NESTING || !uid.split('.').all(is_name) {
            return Err(QueryError::new(&child_param, format!("`{}` is not a valid component uid", shown(uid))));
        }
        if let Some(options) = parse_populate_node(child, &child_param)? {
            map.insert(uid.clone(), options);
        }
    }
    Ok(map)
}

// --- fields, sort, pagination, locale ---------------------------------------------------------

fn parse_fields(node: &Node, param: &str) -> Result<Option<Vec<String>>, QueryError> {
    let items = string_list(node, param)?;
    let names = comma_items(&items, param)?;
    if names == ["*"] {
        return Ok(None);
    }
    let mut fields: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        if name == "*" {
            return Err(QueryError::new(param, "`*` must be the only value of fields"));
        }
        check_name(name, param)?;
        if !fields.iter().any(|field| field == name) {
            fields.push(name.to_string());
        }
    }
    Ok(Some(fields))
}

fn parse_sort(node: &Node, param: &str) -> Result<Vec<(String, SortDir)>, QueryError> {
    let mut out = Vec::new();
    match node {
        Node::Values(_) => {
            for item in comma_items(&string_list(node, param)?, param)? {
                out.push(sort_item(item, param)?);
            }
        }
        Node::Map(entries) => match index_list(entries) {
            Some(items) => {
                for (index, item) in items {
                    out.extend(parse_sort(item, &sub(param, index))?);
                    if out.len() > MAX_LIST_ITEMS {
                        return Err(QueryError::new(param, format!("lists more than {MAX_LIST_ITEMS} items")));
                    }
                }
            }
            None => sort_object(entries, "", param, &mut out)?,
        },
    }
    Ok(out)
}

fn sort_item(item: &str, param: &str) -> Result<(String, SortDir), QueryError> {
    let mut parts = item.split(':');
    let field = parts.next().unwrap_or_default();
    let direction = parts.next();
    if parts.next().is_some() {
        return Err(QueryError::new(param, format!("`{}` has more than one `:`", shown(item))));
    }
    if field.is_empty() {
        return Err(QueryError::new(param, "has an empty field name"));
    }
    check_path(field, param)?;
    let direction = match direction {
        Some(direction) => sort_dir(direction, param)?,
        None => SortDir::Asc,
    };
    Ok((field.to_string(), direction))
}

/// `sort[title]=asc`, `sort[author][name]=desc`.
fn sort_object(
    entries: &Entries,
    prefix: &str,
    param: &str,
    out: &mut Vec<(String, SortDir)>,
) -> Result<(), QueryError> {
    for (key, child) in entries {
        let child_param = sub(param, key);
        check_name(key, &child_param)?;
        let field = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match child {
            Node::Values(_) => out.push((field, sort_dir(required(child, &child_param)?, &child_param)?)),
            Node::Map(children) => {
                if index_list(children).is_some() {
                    return Err(QueryError::new(child_param, "expects asc or desc"));
                }
                sort_object(children, &field, &child_param, out)?;
            }
        }
    }
    Ok(())
}

fn sort_dir(text: &str, param: &str) -> Result<SortDir, QueryError> {
    if text.eq_ignore_ascii_case("asc") {
        Ok(SortDir::Asc)
    } else if text.eq_ignore_ascii_case("desc") {
        Ok(SortDir::Desc)
    } else {
        Err(QueryError::new(
            param,
            format!("Invalid order `{}`. order can only be one of asc|desc|ASC|DESC", shown(text)),
        ))
    }
}

fn parse_pagination(node: &Node) -> Result<Pagination, QueryError> {
    let Node::Map(entries) = node else {
        return Err(QueryError::new("pagination", "expects bracketed keys, like `pagination[page]=1`"));
    };
    let (mut page, mut page_size, mut start, mut limit, mut with_count) = (None, None, None, None, None);
    let mut offset_param = None;
    for (key, child) in entries {
        let param = sub("pagination", key);
        let value = required(child, &param)?;
        let integer = || {
            value
                .parse::<i64>()
                .map_err(|_| QueryError::new(&param, format!("expects an integer, got `{}`", shown(value))))
        };
        match key.as_str() {
            "page" => page = Some(integer()?),
            "pageSize" => page_size = Some(integer()?),
            "start" | "limit" => {
                if key == "start" {
                    start = Some(integer()?);
                } else {
                    limit = Some(integer()?);
                }
                offset_param.get_or_insert(param.clone());
            }
            "withCount" => {
                with_count = Some(parse_bool(value).ok_or_else(|| {
                    QueryError::new(
                        &param,
                        "Invalid withCount parameter. Expected \"t\",\"1\",\"true\",\"false\",\"0\",\"f\"",
                    )
                })?);
            }
            other => {
                return Err(QueryError::new(
                    &param,
                    format!(
                        "unknown pagination key `{}`; expected page, pageSize, start, limit or withCount",
                        shown(other)
                    ),
                ));
            }
        }
    }
    let paged = page.is_some() || page_size.is_some();
    let with_count = with_count.unwrap_or(true);
    if let Some(param) = offset_param {
        if paged {
            return Err(QueryError::new(
                param,
                "Invalid pagination parameters. Expected either start/limit or page/pageSize, not both",
            ));
        }
        let limit = match limit {
            None => DEFAULT_PAGE_SIZE,
            Some(-1) => MAX_UNLIMITED,
            Some(limit) => clamp_size(limit),
        };
        let start = u64::try_from(start.unwrap_or(0)).unwrap_or(0);
        return Ok(Pagination { mode: PageMode::Offset { start, limit }, with_count });
    }
    let page = u64::try_from(page.unwrap_or(1)).unwrap_or(1).max(1);
    let page_size = page_size.map_or(DEFAULT_PAGE_SIZE, clamp_size);
    Ok(Pagination { mode: PageMode::Page { page, page_size }, with_count })
}

fn clamp_size(size: i64) -> u64 {
    u64::try_from(size).unwrap_or(1).clamp(1, MAX_PAGE_SIZE)
}

fn parse_locale(node: &Node) -> Result<Option<String>, QueryError> {
    let value = required(node, "locale")?;
    if value.is_empty() {
        return Ok(None);
    }
    let valid = value.len() <= 35 && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(QueryError::new("locale", format!("`{}` is not a locale code", shown(value))));
    }
    Ok(Some(value.to_string()))
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

/// SQL's three-valued logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tri {
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

static NULL: Value = Value::Null;

/// Whether the document satisfies the filter (see the module docs for the semantics).
pub fn matches(filter: &Filter, doc: &Value) -> bool {
    eval(filter, doc) == Tri::True
}

fn eval(filter: &Filter, doc: &Value) -> Tri {
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
fn collect<'a, S: AsRef<str>>(value: &'a Value, path: &[S], out: &mut Vec<&'a Value>) {
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
fn scalar_of(value: &Value) -> &Value {
    match value {
        Value::Object(map) => map.get("id").unwrap_or(value),
        _ => value,
    }
}

fn eval_leaf(leaf: &Value, op: Op, operand: &FilterValue) -> Tri {
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

fn scalar_op(leaf: &Value, op: Op, text: &str) -> bool {
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
fn compare(leaf: &Value, text: &str) -> Option<Ordering> {
    match leaf {
        Value::Number(number) => compare_number(number, text),
        Value::String(stored) => Some(stored.as_str().cmp(text)),
        Value::Bool(stored) => parse_bool(text).map(|wanted| stored.cmp(&wanted)),
        _ => None,
    }
}

fn compare_number(number: &serde_json::Number, text: &str) -> Option<Ordering> {
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

fn text_of(leaf: &Value) -> Option<Cow<'_, str>> {
    match leaf {
        Value::String(text) => Some(Cow::Borrowed(text)),
        Value::Number(number) => Some(Cow::Owned(number.to_string())),
        Value::Bool(flag) => Some(Cow::Owned(flag.to_string())),
        _ => None,
    }
}

fn equal_ignoring_case(leaf: &Value, text: &str) -> bool {
    match leaf {
        Value::String(stored) => stored.to_lowercase() == text.to_lowercase(),
        _ => compare(leaf, text) == Some(Ordering::Equal),
    }
}

fn text_test(leaf: &Value, needle: &str, ignore_case: bool, test: impl Fn(&str, &str) -> bool) -> bool {
    let Some(haystack) = text_of(leaf) else {
        return false;
    };
    if ignore_case { test(&haystack.to_lowercase(), &needle.to_lowercase()) } else { test(&haystack, needle) }
}

// ---------------------------------------------------------------------------------------------
// Sorting and pagination
// ---------------------------------------------------------------------------------------------

/// Sorts documents in place, stably, by the given dotted paths (see the module docs).
pub fn sort_docs(docs: &mut [Value], sort: &[(String, SortDir)]) {
    if sort.is_empty() {
        return;
    }
    let keys = sort_keys(sort);
    docs.sort_by(|a, b| compare_docs(a, b, &keys));
}

type SortKeys<'a> = Vec<(Vec<&'a str>, SortDir)>;

fn sort_keys(sort: &[(String, SortDir)]) -> SortKeys<'_> {
    sort.iter().map(|(field, dir)| (field.split('.').collect(), *dir)).collect()
}

fn compare_docs(a: &Value, b: &Value, keys: &SortKeys<'_>) -> Ordering {
    for (path, dir) in keys {
        let ordering = compare_sort_values(sort_value(a, path), sort_value(b, path));
        let ordering = if *dir == SortDir::Desc { ordering.reverse() } else { ordering };
        if ordering != Ordering::Equal {
            return ordering;
        }
    }
    Ordering::Equal
}

fn sort_value<'a>(doc: &'a Value, path: &[&str]) -> &'a Value {
    let mut leaves = Vec::new();
    collect(doc, path, &mut leaves);
    leaves.into_iter().map(scalar_of).find(|leaf| !leaf.is_null()).unwrap_or(&NULL)
}

fn compare_sort_values(a: &Value, b: &Value) -> Ordering {
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

fn clamp_range(start: u64, len: u64, total: usize) -> Range<usize> {
    let start = usize::try_from(start).unwrap_or(usize::MAX).min(total);
    let end = start.saturating_add(usize::try_from(len).unwrap_or(usize::MAX)).min(total);
    start..end
}

// ---------------------------------------------------------------------------------------------
// Shaping
// ---------------------------------------------------------------------------------------------

/// Strapi file attributes, in Strapi's order.
const MEDIA_ATTRIBUTES: [&str; 16] = [
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
const MEDIA_REQUIRED: [&str; 6] = ["url", "name", "alternativeText", "width", "height", "mime"];

static NO_POPULATE: Populate = Populate::None;

/// One stored entry as Strapi v4 REST answers it: `{"id", "attributes"}` (see the module docs).
pub fn shape_entry(
    doc: &Value,
    query_fields: Option<&[String]>,
    populate: &Populate,
    relation_keys: &dyn Fn(&str) -> RelationKind,
) -> Value {
    shape_entity(doc, query_fields, populate, "", relation_keys)
}

fn shape_entity(
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

fn entity(id: Value, attributes: Map<String, Value>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), id);
    out.insert("attributes".into(), Value::Object(attributes));
    Value::Object(out)
}

fn join_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") }
}

fn shape_attributes(
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
fn child_options<'a>(populate: &'a Populate, key: &str) -> Option<Cow<'a, PopulateNode>> {
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

fn data(value: Value) -> Value {
    let mut out = Map::new();
    out.insert("data".into(), value);
    Value::Object(out)
}

/// Items kept by a populate node's filters, in its sort order.
fn select<'a>(items: &'a [Value], options: &PopulateNode) -> Vec<&'a Value> {
    let mut kept: Vec<&Value> =
        items.iter().filter(|item| options.filters.as_ref().is_none_or(|filter| matches(filter, item))).collect();
    if !options.sort.is_empty() {
        let keys = sort_keys(&options.sort);
        kept.sort_by(|a, b| compare_docs(a, b, &keys));
    }
    kept
}

fn shape_populated(
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

fn shape_component(item: &Value, options: &PopulateNode, path: &str, kinds: &dyn Fn(&str) -> RelationKind) -> Value {
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

fn media_entity(item: &Value, fields: Option<&[String]>) -> Value {
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

fn media_url(attributes: &Map<String, Value>) -> Option<Value> {
    let url = attributes.get("url").filter(|url| url.is_string())?;
    attributes.keys().all(|key| MEDIA_ATTRIBUTES.contains(&key.as_str())).then(|| url.clone())
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field(path: &[&str], op: Op, value: FilterValue) -> Filter {
        Filter::Field { path: path.iter().map(|s| s.to_string()).collect(), op, value }
    }

    fn text(s: &str) -> FilterValue {
        FilterValue::Text(s.to_string())
    }

    fn list(items: &[&str]) -> FilterValue {
        FilterValue::List(items.iter().map(|s| text(s)).collect())
    }

    fn filters_of(query: &str) -> Filter {
        parse(query).unwrap().filters.unwrap()
    }

    fn error_of(query: &str) -> QueryError {
        parse(query).unwrap_err()
    }

    fn names(map: &BTreeMap<String, PopulateNode>) -> Vec<&str> {
        map.keys().map(String::as_str).collect()
    }

    fn populate_map(populate: &Populate) -> &BTreeMap<String, PopulateNode> {
        match populate {
            Populate::Fields(map) => map,
            other => panic!("expected named populate, got {other:?}"),
        }
    }

    // --- parsing: filters ---

    #[test]
    fn an_eq_filter_on_a_field_becomes_a_field_condition() {
        assert_eq!(filters_of("filters[title][$eq]=Home"), field(&["title"], Op::Eq, text("Home")));
    }

    #[test]
    fn a_plain_filter_value_means_eq() {
        assert_eq!(filters_of("filters[slug]=home"), field(&["slug"], Op::Eq, text("home")));
    }

    #[test]
    fn a_filter_key_without_a_value_means_is_null() {
        assert_eq!(filters_of("filters[slug]"), field(&["slug"], Op::Eq, FilterValue::Null));
        assert_eq!(filters_of("filters[slug][$ne]"), field(&["slug"], Op::Ne, FilterValue::Null));
    }

    #[test]
    fn an_indexed_or_holds_one_condition_per_index() {
        let filter = filters_of("filters[$or][0][slug][$eq]=home&filters[$or][1][slug][$eq]=about");
        assert_eq!(
            filter,
            Filter::Or(vec![field(&["slug"], Op::Eq, text("home")), field(&["slug"], Op::Eq, text("about"))])
        );
    }

    #[test]
    fn list_indices_are_read_in_numeric_order_with_gaps_ignored() {
        let filter = filters_of("filters[$or][10][a]=x&filters[$or][2][a]=y");
        assert_eq!(filter, Filter::Or(vec![field(&["a"], Op::Eq, text("y")), field(&["a"], Op::Eq, text("x"))]));
    }

    #[test]
    fn a_relation_field_filter_has_a_path() {
        assert_eq!(
            filters_of("filters[tags][name][$in][0]=slots&filters[tags][name][$in][1]=live"),
            field(&["tags", "name"], Op::In, list(&["slots", "live"]))
        );
    }

    #[test]
    fn repeated_or_indexed_plain_values_mean_in() {
        let expected = field(&["slug"], Op::In, list(&["a", "b"]));
        assert_eq!(filters_of("filters[slug]=a&filters[slug]=b"), expected);
        assert_eq!(filters_of("filters[slug][0]=a&filters[slug][1]=b"), expected);
        assert_eq!(filters_of("filters[slug][]=a&filters[slug][]=b"), expected);
    }

    #[test]
    fn several_operators_on_one_field_are_anded() {
        assert_eq!(
            filters_of("filters[order][$gt]=1&filters[order][$lt]=5"),
            Filter::And(vec![field(&["order"], Op::Gt, text("1")), field(&["order"], Op::Lt, text("5"))])
        );
    }

    #[test]
    fn and_or_not_nest() {
        let query = "filters[$and][0][$or][0][title][$containsi]=slot&filters[$and][0][$or][1][title][$containsi]=poker\
                     &filters[$and][1][$not][locale][$eq]=fr&filters[author][$not][name][$null]=true";
        let expected = Filter::And(vec![
            Filter::And(vec![
                Filter::Or(vec![
                    field(&["title"], Op::Containsi, text("slot")),
                    field(&["title"], Op::Containsi, text("poker")),
                ]),
                Filter::Not(Box::new(field(&["locale"], Op::Eq, text("fr")))),
            ]),
            Filter::Not(Box::new(field(&["author", "name"], Op::Null, FilterValue::Bool(true)))),
        ]);
        assert_eq!(filters_of(query), expected);
    }

    #[test]
    fn or_under_a_relation_keeps_the_relation_in_the_path() {
        assert_eq!(
            filters_of("filters[author][$or][0][name][$eq]=Ann&filters[author][$or][1][id][$eq]=3"),
            Filter::Or(vec![
                field(&["author", "name"], Op::Eq, text("Ann")),
                field(&["author", "id"], Op::Eq, text("3"))
            ])
        );
    }

    #[test]
    fn every_operator_is_recognised() {
        for op in Op::ALL {
            let value = match op {
                Op::Null | Op::NotNull => "true".to_string(),
                _ => "x".to_string(),
            };
            let query = if op == Op::Between {
                format!("filters[a][{0}][0]=1&filters[a][{0}][1]=2", op.name())
            } else {
                format!("filters[a][{}]={value}", op.name())
            };
            match filters_of(&query) {
                Filter::Field { path, op: parsed, .. } => {
                    assert_eq!(path, vec!["a".to_string()]);
                    assert_eq!(parsed, op);
                }
                other => panic!("{query}: {other:?}"),
            }
            assert_eq!(Op::from_name(op.name()), Some(op));
        }
    }

    #[test]
    fn operator_values_are_typed_per_operator() {
        assert_eq!(filters_of("filters[a][$null]=false"), field(&["a"], Op::Null, FilterValue::Bool(false)));
        assert_eq!(filters_of("filters[a][$notNull]=t"), field(&["a"], Op::NotNull, FilterValue::Bool(true)));
        assert_eq!(filters_of("filters[a][$in]=x"), field(&["a"], Op::In, list(&["x"])));
        assert_eq!(filters_of("filters[a][$eq]=x&filters[a][$eq]=y"), field(&["a"], Op::Eq, list(&["x", "y"])));
        assert_eq!(
            filters_of("filters[a][$between][0]=1&filters[a][$between][1]=9"),
            field(&["a"], Op::Between, list(&["1", "9"]))
        );
    }

    #[test]
    fn an_unknown_operator_is_an_error_naming_the_parameter() {
        let error = error_of("filters[title][$eqq]=x");
        assert_eq!(error.param, "filters[title][$eqq]");
        assert!(error.reason.contains("unknown operator"), "{error}");
        assert!(error.to_string().contains("filters[title][$eqq]"));
    }

    #[test]
    fn bad_operator_values_are_errors_naming_the_parameter() {
        let error = error_of("filters[a][$null]=maybe");
        assert_eq!(error.param, "filters[a][$null]");
        let error = error_of("filters[a][$between]=1");
        assert_eq!(error.param, "filters[a][$between]");
        assert!(error.reason.contains("two values"));
        let error = error_of("filters[a][$eq][b]=1");
        assert_eq!(error.param, "filters[a][$eq]");
        let error = error_of("filters[$eq]=1");
        assert_eq!(error.param, "filters[$eq]");
        let error = error_of("filters=x");
        assert_eq!(error.param, "filters");
        let error = error_of("filters[$or][a][b]=1");
        assert_eq!(error.param, "filters[$or]");
        let error = error_of("filters[ti tle]=x");
        assert_eq!(error.param, "filters[ti tle]");
        assert!(error.reason.contains("not a valid attribute name"));
    }

    // --- parsing: populate ---

    #[test]
    fn populate_star_deep_and_deep_with_depth() {
        assert_eq!(parse("populate=*").unwrap().populate, Populate::All);
        assert_eq!(parse("populate=%2A").unwrap().populate, Populate::All);
        assert_eq!(parse("populate=deep").unwrap().populate, Populate::Deep(5));
        assert_eq!(parse("populate=deep,3").unwrap().populate, Populate::Deep(3));
        assert_eq!(parse("populate[0]=deep&populate[1]=7").unwrap().populate, Populate::Deep(7));
        assert_eq!(parse("populate=").unwrap().populate, Populate::None);
        assert_eq!(parse("").unwrap().populate, Populate::None);
        assert_eq!(error_of("populate=deep,0").param, "populate");
        assert_eq!(error_of("populate=deep,x").param, "populate");
        assert_eq!(error_of("populate=deep,2,3").param, "populate");
        assert_eq!(error_of("populate=*,logo").param, "populate");
    }

    #[test]
    fn populate_lists_name_attributes_and_dotted_paths() {
        let populate = parse("populate[0]=logo&populate[1]=seo.metaImage").unwrap().populate;
        let map = populate_map(&populate);
        assert_eq!(names(map), vec!["logo", "seo"]);
        assert_eq!(map["logo"], PopulateNode::default());
        assert_eq!(names(populate_map(&map["seo"].populate)), vec!["metaImage"]);
        let comma = parse("populate=logo,seo.metaImage").unwrap().populate;
        assert_eq!(comma, populate);
    }

    #[test]
    fn nested_populate_objects_carry_their_own_options() {
        let query = "populate[menu][populate][items]=*&populate[seo][fields][0]=title\
                     &populate[seo][fields][1]=description\
                     &populate[tags][filters][name][$ne]=hidden&populate[tags][sort]=name:desc&populate[logo]=true\
                     &populate[banner]=false&populate[blocks][on][shared.quote][populate]=*";
        let populate = parse(query).unwrap().populate;
        let map = populate_map(&populate);
        assert_eq!(names(map), vec!["blocks", "logo", "menu", "seo", "tags"]);
        assert_eq!(names(populate_map(&map["menu"].populate)), vec!["items"]);
        assert_eq!(map["seo"].fields, Some(vec!["title".to_string(), "description".to_string()]));
        assert_eq!(map["tags"].filters, Some(field(&["name"], Op::Ne, text("hidden"))));
        assert_eq!(map["tags"].sort, vec![("name".to_string(), SortDir::Desc)]);
        assert_eq!(map["logo"], PopulateNode::default());
        assert_eq!(map["blocks"].on["shared.quote"].populate, Populate::All);
    }

    #[test]
    fn nested_populate_star_is_all_and_nested_deep_is_a_name() {
        let populate = parse("populate[menu][populate]=*&populate[footer][populate]=deep").unwrap().populate;
        let map = populate_map(&populate);
        assert_eq!(map["menu"].populate, Populate::All);
        assert_eq!(names(populate_map(&map["footer"].populate)), vec!["deep"]);
    }

    #[test]
    fn bad_populate_options_are_errors_naming_the_parameter() {
        let error = error_of("populate[tags][count]=true");
        assert_eq!(error.param, "populate[tags][count]");
        assert!(error.reason.contains("unknown populate option"));
        assert_eq!(error_of("populate[logo]=yes").param, "populate[logo]");
        assert_eq!(error_of("populate[logo]").param, "populate[logo]");
        assert_eq!(error_of("populate[blocks][on]=x").param, "populate[blocks][on]");
    }

    // --- parsing: sort, pagination, fields, locale, publicationState ---

    #[test]
    fn sort_accepts_every_strapi_form() {
        let s = |q: &str| parse(q).unwrap().sort;
        let asc = |f: &str| (f.to_string(), SortDir::Asc);
        let desc = |f: &str| (f.to_string(), SortDir::Desc);
        assert_eq!(s("sort=title:asc"), vec![asc("title")]);
        assert_eq!(s("sort=title"), vec![asc("title")]);
        assert_eq!(s("sort=title:DESC"), vec![desc("title")]);
        assert_eq!(s("sort[0]=order:desc&sort[1]=id"), vec![desc("order"), asc("id")]);
        assert_eq!(s("sort=a:asc,b:desc"), vec![asc("a"), desc("b")]);
        assert_eq!(s("sort=a&sort=b:desc"), vec![asc("a"), desc("b")]);
        assert_eq!(s("sort=author.name:desc"), vec![desc("author.name")]);
        assert_eq!(s("sort[title]=desc&sort[author][name]=asc"), vec![desc("title"), asc("author.name")]);
        assert_eq!(s("sort[0][title]=asc&sort[1]=id:desc"), vec![asc("title"), desc("id")]);
    }

    #[test]
    fn bad_sorts_are_errors() {
        assert!(error_of("sort=title:up").reason.contains("asc|desc"));
        assert_eq!(error_of("sort=:desc").param, "sort");
        assert_eq!(error_of("sort=a:asc:x").param, "sort");
        assert_eq!(error_of("sort[title]=sideways").param, "sort[title]");
    }

    #[test]
    fn pagination_defaults_to_page_one_of_twenty_five() {
        let pagination = parse("").unwrap().pagination;
        assert_eq!(pagination.mode, PageMode::Page { page: 1, page_size: 25 });
        assert!(pagination.with_count);
    }

    #[test]
    fn pagination_accepts_page_and_offset_modes_with_caps() {
        let p = |q: &str| parse(q).unwrap().pagination.mode;
        assert_eq!(p("pagination[page]=2&pagination[pageSize]=10"), PageMode::Page { page: 2, page_size: 10 });
        assert_eq!(p("pagination[pageSize]=500"), PageMode::Page { page: 1, page_size: MAX_PAGE_SIZE });
        assert_eq!(p("pagination[page]=0&pagination[pageSize]=0"), PageMode::Page { page: 1, page_size: 1 });
        assert_eq!(p("pagination[start]=0&pagination[limit]=20"), PageMode::Offset { start: 0, limit: 20 });
        assert_eq!(p("pagination[start]=5"), PageMode::Offset { start: 5, limit: 25 });
        assert_eq!(p("pagination[limit]=1000"), PageMode::Offset { start: 0, limit: MAX_PAGE_SIZE });
        assert_eq!(p("pagination[limit]=-1"), PageMode::Offset { start: 0, limit: MAX_UNLIMITED });
        assert_eq!(p("pagination[start]=-3&pagination[limit]=0"), PageMode::Offset { start: 0, limit: 1 });
        assert!(!parse("pagination[withCount]=false").unwrap().pagination.with_count);
        assert!(parse("pagination[withCount]=1").unwrap().pagination.with_count);
    }

    #[test]
    fn mixing_page_and_offset_pagination_is_refused() {
        let error = error_of("pagination[page]=1&pagination[start]=0");
        assert_eq!(error.param, "pagination[start]");
        assert!(error.reason.contains("Expected either start/limit or page/pageSize"));
        assert_eq!(error_of("pagination[limit]=5&pagination[pageSize]=5").param, "pagination[limit]");
    }

    #[test]
    fn bad_pagination_values_are_errors() {
        assert_eq!(error_of("pagination[page]=two").param, "pagination[page]");
        assert_eq!(error_of("pagination[page]=1.5").param, "pagination[page]");
        assert_eq!(error_of("pagination[withCount]=maybe").param, "pagination[withCount]");
        assert_eq!(error_of("pagination[size]=5").param, "pagination[size]");
        assert_eq!(error_of("pagination=5").param, "pagination");
        assert_eq!(error_of("pagination[page]=1&pagination[page]=2").param, "pagination[page]");
    }

    #[test]
    fn fields_accept_lists_and_comma_strings() {
        let f = |q: &str| parse(q).unwrap().fields;
        let expected = Some(vec!["title".to_string(), "slug".to_string()]);
        assert_eq!(f("fields[0]=title&fields[1]=slug"), expected);
        assert_eq!(f("fields=title,slug"), expected);
        assert_eq!(f("fields=title, slug,title"), expected);
        assert_eq!(f("fields=*"), None);
        assert_eq!(f(""), None);
        assert_eq!(error_of("fields=title,*").param, "fields");
        assert_eq!(error_of("fields[a]=title").param, "fields");
    }

    #[test]
    fn lists_longer_than_a_thousand_items_are_refused() {
        let names: Vec<String> = (0..1001).map(|i| format!("f{i}")).collect();
        let error = error_of(&format!("fields={}", names.join(",")));
        assert_eq!(error.param, "fields");
        assert!(error.reason.contains("more than 1000 items"));
        assert_eq!(error_of(&format!("sort={}", names.join(","))).param, "sort");
        assert_eq!(error_of(&format!("populate={}", names.join(","))).param, "populate");
        assert!(parse(&format!("fields={}", names[..1000].join(","))).is_ok());
    }

    #[test]
    fn locale_and_publication_state_are_read_and_checked() {
        let query = parse("locale=fr&publicationState=preview").unwrap();
        assert_eq!(query.locale.as_deref(), Some("fr"));
        assert_eq!(query.publication_state, PublicationState::Preview);
        let query = parse("locale=").unwrap();
        assert_eq!(query.locale, None);
        assert_eq!(query.publication_state, PublicationState::Live);
        assert_eq!(error_of("locale=f%20r").param, "locale");
        assert_eq!(error_of("locale[0]=fr").param, "locale");
        let error = error_of("publicationState=draft");
        assert_eq!(error.param, "publicationState");
        assert!(error.reason.contains("'preview','live'"));
    }

    #[test]
    fn unknown_top_level_parameters_are_ignored() {
        let query = parse("utm_source=x&_q=slots&foo[bar]=1&filters[slug]=home").unwrap();
        assert_eq!(query.filters, Some(field(&["slug"], Op::Eq, text("home"))));
    }

    // --- parsing: syntax ---

    #[test]
    fn malformed_brackets_are_errors_even_in_unknown_parameters() {
        let error = error_of("filters[title=x");
        assert_eq!(error.param, "filters[title");
        assert!(error.reason.contains("without a matching `]`"));
        let error = error_of("a]b=1");
        assert_eq!(error.param, "a]b");
        assert!(error.reason.contains("without a matching `[`"));
        assert!(error_of("a[b]c=1").reason.contains("after a `]`"));
        assert!(error_of("a[b[c]]=1").reason.contains("inside brackets"));
        assert!(error_of("[a]=1").reason.contains("without a name"));
        assert!(error_of("filters[$or][][slug]=x").reason.contains("index is needed"));
        assert!(error_of("a[][]=x").reason.contains("index is needed"));
        assert!(error_of("a[01]=x").reason.contains("leading zero"));
    }

    #[test]
    fn nesting_deeper_than_twenty_levels_is_refused() {
        let ok = format!("x{}=1", "[a]".repeat(20));
        assert!(parse(&ok).is_ok());
        let deep = format!("x{}=1", "[a]".repeat(21));
        assert!(error_of(&deep).reason.contains("deeper than 20"));
    }

    #[test]
    fn array_indices_above_one_thousand_are_refused() {
        assert!(parse("fields[1000]=title").is_ok());
        let error = error_of("fields[1001]=title");
        assert_eq!(error.param, "fields[1001]");
        assert!(error.reason.contains("larger than 1000"));
        assert!(error_of("x[99999999999999999999999]=1").reason.contains("larger than 1000"));
    }

    #[test]
    fn more_than_a_thousand_parameters_are_refused() {
        let ok = vec!["a=1"; 1000].join("&");
        assert!(parse(&ok).is_ok());
        let too_many = vec!["a=1"; 1001].join("&");
        let error = error_of(&too_many);
        assert_eq!(error.param, "a");
        assert!(error.reason.contains("more than 1000 parameters"));
    }

    #[test]
    fn a_name_used_both_plain_and_with_brackets_is_refused() {
        assert!(error_of("populate=*&populate[0]=logo").reason.contains("both as a plain value"));
        assert!(error_of("filters[a][b]=1&filters[a]=2").reason.contains("both as a plain value"));
    }

    #[test]
    fn percent_encoded_keys_parse_like_raw_brackets() {
        let encoded = parse("filters%5Bslug%5D%5B%24eq%5D=home&populate%5B0%5D=logo&sort=title%3Adesc").unwrap();
        let raw = parse("filters[slug][$eq]=home&populate[0]=logo&sort=title:desc").unwrap();
        assert_eq!(encoded, raw);
        assert_eq!(parse("?filters[slug]=home").unwrap().filters, raw.filters);
    }

    #[test]
    fn plus_is_space_and_escaped_plus_is_plus() {
        assert_eq!(filters_of("filters[title]=a+b%2Bc"), field(&["title"], Op::Eq, text("a b+c")));
        assert_eq!(filters_of("filters[title]=caf%C3%A9"), field(&["title"], Op::Eq, text("café")));
    }

    #[test]
    fn invalid_utf8_and_malformed_escapes_are_refused() {
        let error = error_of("filters[title]=%FF");
        assert_eq!(error.param, "filters[title]");
        assert!(error.reason.contains("UTF-8"));
        assert!(error_of("filters%FF=1").reason.contains("UTF-8"));
        assert!(error_of("a=%G1").reason.contains("percent-escape"));
        assert!(error_of("a=%4").reason.contains("percent-escape"));
    }

    // --- evaluation ---

    fn entry() -> Value {
        json!({
            "id": 1, "title": "Grand Café Slots", "slug": "grand", "order": 10, "rating": 4.5,
            "featured": true, "locale": "en", "publishedAt": "2024-03-01T10:00:00.000Z",
            "subtitle": null,
            "author": {"id": 3, "name": "Ann"},
            "tags": [{"id": 1, "name": "slots"}, {"id": 2, "name": "live"}],
            "empty": []
        })
    }

    fn check(query: &str) -> bool {
        matches(&filters_of(query), &entry())
    }

    #[test]
    fn each_operator_evaluates_like_strapi() {
        let cases: &[(&str, bool)] = &[
            ("filters[slug][$eq]=grand", true),
            ("filters[slug][$eq]=Grand", false),
            ("filters[slug][$eqi]=GRAND", true),
            ("filters[title][$eqi]=grand CAFÉ slots", true),
            ("filters[slug][$ne]=other", true),
            ("filters[slug][$ne]=grand", false),
            ("filters[slug][$nei]=GRAND", false),
            ("filters[slug][$nei]=other", true),
            ("filters[order][$lt]=11", true),
            ("filters[order][$lt]=10", false),
            ("filters[order][$lte]=10", true),
            ("filters[order][$gt]=9", true),
            ("filters[order][$gt]=10", false),
            ("filters[order][$gte]=10", true),
            ("filters[rating][$gt]=4.25", true),
            ("filters[order][$in][0]=1&filters[order][$in][1]=10", true),
            ("filters[order][$in]=7", false),
            ("filters[order][$notIn][0]=1&filters[order][$notIn][1]=2", true),
            ("filters[order][$notIn][0]=10", false),
            ("filters[title][$contains]=Café", true),
            ("filters[title][$contains]=café", false),
            ("filters[title][$notContains]=Poker", true),
            ("filters[title][$notContains]=Slots", false),
            ("filters[title][$containsi]=CAFÉ", true),
            ("filters[title][$notContainsi]=café", false),
            ("filters[title][$notContainsi]=poker", true),
            ("filters[subtitle][$null]=true", true),
            ("filters[subtitle][$null]=false", false),
            ("filters[title][$null]=true", false),
            ("filters[missing][$null]=true", true),
            ("filters[subtitle][$notNull]=true", false),
            ("filters[title][$notNull]=1", true),
            ("filters[order][$between][0]=5&filters[order][$between][1]=10", true),
            ("filters[order][$between][0]=11&filters[order][$between][1]=20", false),
            ("filters[title][$startsWith]=Grand", true),
            ("filters[title][$startsWith]=grand", false),
            ("filters[title][$startsWithi]=grand", true),
            ("filters[title][$endsWith]=Slots", true),
            ("filters[title][$endsWith]=slots", false),
            ("filters[title][$endsWithi]=SLOTS", true),
            ("filters[featured][$eq]=true", true),
            ("filters[featured][$eq]=0", false),
        ];
        for (query, expected) in cases {
            assert_eq!(check(query), *expected, "{query}");
        }
    }

    #[test]
    fn numbers_compare_numerically_and_strings_lexicographically() {
        assert!(check("filters[order][$gt]=9"), "10 > 9 as numbers");
        assert!(check("filters[slug][$gt]=alpha"));
        assert!(!check("filters[order][$eq]=ten"), "text that is not a number never equals a number");
        assert!(check("filters[order][$eq]=10.0"));
        assert!(!matches(&filters_of("filters[code][$gt]=9"), &json!({"code": "10"})), "'10' < '9' as strings");
    }

    #[test]
    fn iso_dates_compare_as_strings() {
        assert!(check("filters[publishedAt][$gt]=2024-02-28T00:00:00.000Z"));
        assert!(!check("filters[publishedAt][$lt]=2024-02-28T00:00:00.000Z"));
        assert!(check("filters[publishedAt][$between][0]=2024-03-01&filters[publishedAt][$between][1]=2024-03-02"));
    }

    #[test]
    fn nulls_follow_sql_three_valued_logic() {
        assert!(!check("filters[subtitle][$ne]=x"), "$ne does not match null");
        assert!(!check("filters[missing][$notContains]=x"));
        assert!(!check("filters[$not][subtitle][$eq]=x"), "NOT(unknown) is unknown");
        assert!(check("filters[subtitle][$eq]"), "$eq null is IS NULL");
        assert!(check("filters[title][$ne]"), "$ne null is IS NOT NULL");
        assert!(check("filters[$or][0][subtitle][$eq]=x&filters[$or][1][slug]=grand"));
    }

    #[test]
    fn a_path_through_an_array_matches_if_any_element_does() {
        assert!(check("filters[tags][name][$eq]=live"));
        assert!(!check("filters[tags][name][$eq]=poker"));
        assert!(check("filters[tags][name][$ne]=live"), "the slots tag is not live");
        assert!(check("filters[empty][name][$null]=true"), "an empty relation is a null row");
        assert!(!check("filters[empty][name][$eq]=x"));
    }

    #[test]
    fn a_relation_compared_directly_compares_its_id() {
        assert!(check("filters[author]=3"));
        assert!(check("filters[author][id][$eq]=3"));
        assert!(check("filters[author][name][$eq]=Ann"));
        assert!(check("filters[tags][$in][0]=2"));
        assert!(!check("filters[author]=4"));
    }

    #[test]
    fn and_or_not_evaluate() {
        assert!(check("filters[$and][0][slug]=grand&filters[$and][1][order][$gte]=10"));
        assert!(!check("filters[$and][0][slug]=grand&filters[$and][1][order][$gt]=10"));
        assert!(check("filters[$or][0][slug]=nope&filters[$or][1][order]=10"));
        assert!(check("filters[$not][slug]=nope"));
        assert!(!check("filters[$not][$or][0][slug]=grand&filters[$not][$or][1][slug]=x"));
    }

    #[test]
    fn a_list_operand_of_a_scalar_operator_matches_any_item() {
        assert!(check("filters[slug][$eq]=x&filters[slug][$eq]=grand"));
        assert!(check("filters[title][$containsi][0]=poker&filters[title][$containsi][1]=slots"));
    }

    // --- sorting ---

    #[test]
    fn sorting_puts_nulls_first_ascending_and_last_descending() {
        let mut docs =
            vec![json!({"id": 1, "n": 2}), json!({"id": 2}), json!({"id": 3, "n": 1}), json!({"id": 4, "n": null})];
        sort_docs(&mut docs, &[("n".into(), SortDir::Asc)]);
        let ids: Vec<i64> = docs.iter().map(|d| d["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, vec![2, 4, 3, 1], "nulls first, stable among themselves");
        sort_docs(&mut docs, &[("n".into(), SortDir::Desc)]);
        let ids: Vec<i64> = docs.iter().map(|d| d["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, vec![1, 3, 2, 4]);
    }

    #[test]
    fn sorting_by_several_keys_and_nested_paths() {
        let mut docs = vec![
            json!({"id": 1, "group": "b", "order": 2, "author": {"name": "Zed"}}),
            json!({"id": 2, "group": "a", "order": 2, "author": {"name": "Ann"}}),
            json!({"id": 3, "group": "b", "order": 1, "author": {"name": "Bob"}}),
            json!({"id": 4, "group": "a", "order": 9, "author": null}),
        ];
        sort_docs(&mut docs, &parse("sort=group:asc,order:desc").unwrap().sort);
        let ids: Vec<i64> = docs.iter().map(|d| d["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, vec![4, 2, 1, 3]);
        sort_docs(&mut docs, &parse("sort=author.name").unwrap().sort);
        let ids: Vec<i64> = docs.iter().map(|d| d["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, vec![4, 2, 3, 1]);
    }

    #[test]
    fn sorting_orders_numbers_before_strings_and_numbers_numerically() {
        let mut docs =
            vec![json!({"v": "b"}), json!({"v": 10}), json!({"v": 9}), json!({"v": "a"}), json!({"v": false})];
        sort_docs(&mut docs, &[("v".into(), SortDir::Asc)]);
        let values: Vec<Value> = docs.iter().map(|d| d["v"].clone()).collect();
        assert_eq!(values, vec![json!(false), json!(9), json!(10), json!("a"), json!("b")]);
    }

    // --- pagination ---

    #[test]
    fn page_meta_serializes_exactly_like_strapi() {
        let (range, meta) = paginate(3, &Pagination::default());
        assert_eq!(range, 0..3);
        assert_eq!(serde_json::to_string(&meta).unwrap(), r#"{"page":1,"pageSize":25,"pageCount":1,"total":3}"#);
        let p = parse("pagination[page]=2&pagination[pageSize]=10").unwrap().pagination;
        let (range, meta) = paginate(25, &p);
        assert_eq!(range, 10..20);
        assert_eq!(
            serde_json::to_value(&meta).unwrap(),
            json!({"page": 2, "pageSize": 10, "pageCount": 3, "total": 25})
        );
        let (range, meta) = paginate(0, &Pagination::default());
        assert_eq!(range, 0..0);
        assert_eq!(serde_json::to_string(&meta).unwrap(), r#"{"page":1,"pageSize":25,"pageCount":0,"total":0}"#);
    }

    #[test]
    fn offset_meta_serializes_exactly_like_strapi() {
        let p = parse("pagination[start]=0&pagination[limit]=25").unwrap().pagination;
        let (range, meta) = paginate(3, &p);
        assert_eq!(range, 0..3);
        assert_eq!(serde_json::to_string(&meta).unwrap(), r#"{"start":0,"limit":25,"total":3}"#);
        let p = parse("pagination[start]=2&pagination[limit]=2").unwrap().pagination;
        assert_eq!(paginate(3, &p).0, 2..3);
    }

    #[test]
    fn without_count_the_meta_has_no_total() {
        let p = parse("pagination[withCount]=false").unwrap().pagination;
        assert_eq!(serde_json::to_string(&paginate(3, &p).1).unwrap(), r#"{"page":1,"pageSize":25}"#);
        let p = parse("pagination[limit]=5&pagination[withCount]=f").unwrap().pagination;
        assert_eq!(serde_json::to_string(&paginate(3, &p).1).unwrap(), r#"{"start":0,"limit":5}"#);
    }

    #[test]
    fn a_page_past_the_end_is_empty() {
        let p = parse("pagination[page]=99&pagination[pageSize]=10").unwrap().pagination;
        assert_eq!(paginate(15, &p).0, 15..15);
        let huge = Pagination { mode: PageMode::Page { page: u64::MAX, page_size: 100 }, with_count: true };
        assert_eq!(paginate(15, &huge).0, 15..15);
    }

    // --- shaping ---

    fn media(id: i64, url: &str) -> Value {
        json!({
            "id": id, "url": url, "name": "file", "alternativeText": "alt",
            "width": 10, "height": 20, "mime": "image/png"
        })
    }

    fn page_doc() -> Value {
        json!({
            "id": 1, "title": "Home", "slug": "home", "locale": "en",
            "seo": {"id": 10, "metaTitle": "Welcome", "metaImage": media(5, "/uploads/seo.png")},
            "logo": media(7, "/uploads/logo.svg"),
            "author": {"id": 3, "name": "Ann", "avatar": media(8, "/uploads/ann.png")},
            "category": null,
            "tags": [{"id": 1, "name": "slots"}, {"id": 2, "name": "live"}],
            "blocks": [
                {"id": 1, "__component": "shared.quote", "text": "Hi"},
                {"id": 2, "__component": "shared.media", "file": media(9, "/uploads/block.png")}
            ]
        })
    }

    fn kinds(path: &str) -> RelationKind {
        match path {
            "seo" | "blocks" => RelationKind::Component,
            "logo" | "seo.metaImage" | "author.avatar" | "blocks.file" => RelationKind::Media,
            "author" | "category" | "tags" => RelationKind::Relation,
            _ => RelationKind::Scalar,
        }
    }

    #[test]
    fn without_populate_only_scalars_are_returned() {
        let shaped = shape_entry(&page_doc(), None, &Populate::None, &kinds);
        assert_eq!(
            shaped,
            json!({"id": 1, "attributes": {"title": "Home", "slug": "home", "locale": "en"}}),
            "components, media and relations are omitted unless populated"
        );
    }

    #[test]
    fn fields_keep_only_the_named_scalars_and_the_id() {
        let fields = vec!["title".to_string()];
        let shaped = shape_entry(&page_doc(), Some(&fields), &parse("populate[0]=logo").unwrap().populate, &kinds);
        assert_eq!(shaped["id"], json!(1));
        let attributes = shaped["attributes"].as_object().unwrap();
        assert_eq!(attributes.keys().collect::<Vec<_>>(), vec!["logo", "title"]);
    }

    #[test]
    fn populate_star_wraps_relations_and_media_one_level_deep() {
        let shaped = shape_entry(&page_doc(), None, &Populate::All, &kinds);
        let attributes = &shaped["attributes"];
        assert_eq!(
            attributes["logo"],
            json!({"data": {"id": 7, "attributes": {
                "url": "/uploads/logo.svg", "name": "file", "alternativeText": "alt",
                "width": 10, "height": 20, "mime": "image/png"}}})
        );
        assert_eq!(attributes["category"], json!({"data": null}));
        assert_eq!(
            attributes["author"],
            json!({"data": {"id": 3, "attributes": {"name": "Ann"}}}),
            "avatar is two levels down"
        );
        assert_eq!(
            attributes["tags"],
            json!({"data": [{"id": 1, "attributes": {"name": "slots"}}, {"id": 2, "attributes": {"name": "live"}}]})
        );
        assert_eq!(
            attributes["seo"],
            json!({"id": 10, "metaTitle": "Welcome"}),
            "the component's media is not populated"
        );
        assert_eq!(
            attributes["blocks"],
            json!([{"id": 1, "__component": "shared.quote", "text": "Hi"}, {"id": 2, "__component": "shared.media"}])
        );
    }

    #[test]
    fn a_component_is_included_only_when_populated() {
        let shaped = shape_entry(&page_doc(), None, &parse("populate=seo").unwrap().populate, &kinds);
        assert_eq!(shaped["attributes"]["seo"], json!({"id": 10, "metaTitle": "Welcome"}));
        assert!(shaped["attributes"].get("blocks").is_none());
        assert!(shaped["attributes"].get("logo").is_none());
        let shaped = shape_entry(&page_doc(), None, &parse("populate=seo.metaImage").unwrap().populate, &kinds);
        assert_eq!(shaped["attributes"]["seo"]["metaImage"]["data"]["attributes"]["url"], json!("/uploads/seo.png"));
    }

    #[test]
    fn deep_populates_to_its_depth() {
        let deep2 = shape_entry(&page_doc(), None, &Populate::Deep(2), &kinds);
        assert_eq!(deep2, shape_entry(&page_doc(), None, &Populate::All, &kinds), "deep,2 equals *");
        let deep1 = shape_entry(&page_doc(), None, &Populate::Deep(1), &kinds);
        assert_eq!(deep1, shape_entry(&page_doc(), None, &Populate::None, &kinds), "deep,1 populates nothing");
        let deep3 = shape_entry(&page_doc(), None, &Populate::Deep(3), &kinds);
        let avatar = &deep3["attributes"]["author"]["data"]["attributes"]["avatar"];
        assert_eq!(avatar["data"]["attributes"]["url"], json!("/uploads/ann.png"));
        assert_eq!(deep3["attributes"]["blocks"][1]["file"]["data"]["id"], json!(9));
    }

    #[test]
    fn a_requested_relation_missing_from_the_document_is_data_null() {
        let doc = json!({"id": 2, "title": "Bare"});
        let shaped = shape_entry(&doc, None, &parse("populate=author,seo,title").unwrap().populate, &kinds);
        assert_eq!(shaped, json!({"id": 2, "attributes": {"title": "Bare", "author": {"data": null}, "seo": null}}));
    }

    #[test]
    fn populate_options_filter_sort_and_select_related_entries() {
        let query = "populate[tags][filters][name][$ne]=live&populate[tags][fields][0]=name\
                     &populate[logo][fields][0]=url&populate[author][filters][name][$eq]=Bob";
        let shaped = shape_entry(&page_doc(), None, &parse(query).unwrap().populate, &kinds);
        assert_eq!(shaped["attributes"]["tags"], json!({"data": [{"id": 1, "attributes": {"name": "slots"}}]}));
        assert_eq!(
            shaped["attributes"]["logo"],
            json!({"data": {"id": 7, "attributes": {"url": "/uploads/logo.svg"}}})
        );
        assert_eq!(shaped["attributes"]["author"], json!({"data": null}));
        let sorted = shape_entry(&page_doc(), None, &parse("populate[tags][sort]=name").unwrap().populate, &kinds);
        assert_eq!(sorted["attributes"]["tags"]["data"][0]["attributes"]["name"], json!("live"));
    }

    #[test]
    fn dynamic_zone_fragments_populate_per_component() {
        let query = "populate[blocks][on][shared.media][populate]=*";
        let shaped = shape_entry(&page_doc(), None, &parse(query).unwrap().populate, &kinds);
        assert_eq!(shaped["attributes"]["blocks"][1]["file"]["data"]["id"], json!(9));
        assert_eq!(shaped["attributes"]["blocks"][0]["text"], json!("Hi"));
    }

    // --- flattening ---

    #[test]
    fn flatten_undoes_shaping_and_turns_media_into_urls() {
        let doc = page_doc();
        let shaped = shape_entry(&doc, None, &Populate::Deep(5), &kinds);
        let expected = json!({
            "id": 1, "title": "Home", "slug": "home", "locale": "en",
            "seo": {"id": 10, "metaTitle": "Welcome", "metaImage": "/uploads/seo.png"},
            "logo": "/uploads/logo.svg",
            "author": {"id": 3, "name": "Ann", "avatar": "/uploads/ann.png"},
            "category": null,
            "tags": [{"id": 1, "name": "slots"}, {"id": 2, "name": "live"}],
            "blocks": [
                {"id": 1, "__component": "shared.quote", "text": "Hi"},
                {"id": 2, "__component": "shared.media", "file": "/uploads/block.png"}
            ]
        });
        assert_eq!(flatten(&shaped), expected);
        let response = json!({"data": [shaped], "meta": {"pagination": {"page": 1}}});
        assert_eq!(flatten(&response), json!([expected]));
    }

    #[test]
    fn flatten_keeps_an_entry_that_merely_has_a_url() {
        let page = json!({"data": {"id": 4, "attributes": {"url": "/promo", "title": "Promo"}}});
        assert_eq!(flatten(&page), json!({"id": 4, "url": "/promo", "title": "Promo"}));
    }

    // --- robustness ---

    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    const ALPHABET: &[&str] = &[
        "[", "]", "$", "=", "&", "%", ".", ",", ":", "*", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b",
        "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x",
        "y", "z", "é", "日", "🎰", "ß",
    ];

    /// Meaningful tokens (the empty token is added by `tokens`), to reach the interpreter.
    const TOKENS: &str = "filters populate sort pagination fields locale publicationState \
        $eq $eqi $ne $in $notIn $or $and $not $between $null $notNull $containsi $startsWith \
        deep * on page pageSize start limit withCount \
        title tags name -1 1001 0 1 %5B %5D %FF %2 asc desc true false + shared.quote";

    fn tokens() -> Vec<&'static str> {
        let mut tokens: Vec<&str> = TOKENS.split(' ').collect();
        tokens.push("");
        tokens
    }

    fn random_query(rng: &mut XorShift, tokens: &[&str]) -> String {
        let mut out = String::new();
        if rng.below(2) == 0 {
            for _ in 0..rng.below(60) {
                out.push_str(ALPHABET[rng.below(ALPHABET.len())]);
            }
            return out;
        }
        // Bracket-shaped parameters built from meaningful tokens, to reach the interpreter.
        for param in 0..1 + rng.below(5) {
            if param > 0 {
                out.push('&');
            }
            out.push_str(tokens[rng.below(7)]);
            for _ in 0..rng.below(6) {
                out.push('[');
                out.push_str(tokens[rng.below(tokens.len())]);
                out.push(']');
            }
            if rng.below(8) != 0 {
                out.push('=');
                for _ in 0..rng.below(3) {
                    out.push_str(tokens[rng.below(tokens.len())]);
                    if rng.below(3) == 0 {
                        out.push(',');
                    }
                }
            }
        }
        out
    }

    #[test]
    fn twenty_thousand_random_queries_never_panic() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let tokens = tokens();
        let doc = page_doc();
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..25_000 {
            let query = random_query(&mut rng, &tokens);
            match parse(&query) {
                Ok(parsed) => {
                    accepted += 1;
                    if let Some(filter) = &parsed.filters {
                        let _ = matches(filter, &doc);
                    }
                    let mut docs = vec![doc.clone(), json!({"id": 2}), json!(null)];
                    sort_docs(&mut docs, &parsed.sort);
                    let _ = paginate(docs.len(), &parsed.pagination);
                    let shaped = shape_entry(&doc, parsed.fields.as_deref(), &parsed.populate, &kinds);
                    let _ = flatten(&shaped);
                }
                Err(error) => {
                    refused += 1;
                    assert!(!error.reason.is_empty(), "{query}");
                }
            }
        }
        assert!(accepted > 1_000 && refused > 1_000, "accepted {accepted}, refused {refused}");
    }

    #[test]
    fn fuzz_one_accepts_arbitrary_bytes() {
        fuzz_one(b"filters[\xff\xfe]=\x00&populate=deep,255");
        fuzz_one(&[0xC3, 0x28, b'[', b']', b'%']);
        fuzz_one(b"");
    }
}
