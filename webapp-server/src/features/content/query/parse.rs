//! Parsing a query string: the qs bracket syntax into a generic tree, then the tree into a
//! [`ContentQuery`] (see the grammar in the parent module's docs).

use super::*;

/// The qs-like intermediate tree: a name holds either plain values (in order) or bracketed keys
/// (in first-seen order, like a JavaScript object).
#[derive(Debug)]
pub(super) enum Node {
    Values(Vec<Option<String>>),
    Map(Vec<(String, Node)>),
}

pub(super) type Entries = [(String, Node)];

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
pub(super) fn decode(raw: &str) -> Result<String, String> {
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
pub(super) fn split_key(key: &str) -> Result<Vec<String>, String> {
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

pub(super) fn insert(root: &mut Vec<(String, Node)>, segments: &[String], value: Option<String>) -> Result<(), String> {
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

pub(super) fn position_or_push(entries: &mut Vec<(String, Node)>, key: &str, make: impl FnOnce() -> Node) -> usize {
    match entries.iter().position(|(k, _)| k == key) {
        Some(at) => at,
        None => {
            entries.push((key.to_string(), make()));
            entries.len() - 1
        }
    }
}

pub(super) fn mixed(segment: &str) -> String {
    format!("`{}` is given both as a plain value and with bracketed keys", shown(segment))
}

/// Shortens user text quoted in a reason.
pub(super) fn shown(text: &str) -> String {
    truncated(text, 80)
}

/// A parameter name for an error, shortened only when absurdly long.
pub(super) fn param_name(text: &str) -> String {
    truncated(text, 256)
}

pub(super) fn truncated(text: &str, max: usize) -> String {
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

pub(super) fn interpret(root: &Entries) -> Result<ContentQuery, QueryError> {
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

pub(super) fn sub(param: &str, key: impl fmt::Display) -> String {
    format!("{param}[{key}]")
}

/// The single value of a plain parameter (`None` for a key without `=`).
pub(super) fn single<'a>(node: &'a Node, param: &str) -> Result<Option<&'a str>, QueryError> {
    match node {
        Node::Values(values) if values.len() == 1 => Ok(values.first().and_then(Option::as_deref)),
        Node::Values(_) => Err(QueryError::new(param, "is given more than once")),
        Node::Map(_) => Err(QueryError::new(param, "expects a single value, not bracketed keys")),
    }
}

pub(super) fn required<'a>(node: &'a Node, param: &str) -> Result<&'a str, QueryError> {
    single(node, param)?.ok_or_else(|| QueryError::new(param, "needs a value (`name=value`)"))
}

/// The entries of a map whose keys are all array indices, in index order.
pub(super) fn index_list(entries: &Entries) -> Option<Vec<(u64, &Node)>> {
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
pub(super) fn string_list(node: &Node, param: &str) -> Result<Vec<String>, QueryError> {
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
pub(super) fn comma_items<'a>(values: &'a [String], param: &str) -> Result<Vec<&'a str>, QueryError> {
    let items: Vec<&str> = values.iter().flat_map(|value| value.split(',')).map(str::trim).collect();
    if items.len() > MAX_LIST_ITEMS {
        return Err(QueryError::new(param, format!("lists more than {MAX_LIST_ITEMS} items")));
    }
    Ok(items)
}

pub(super) fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok && name.len() <= 128 && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

pub(super) fn check_name(name: &str, param: &str) -> Result<(), QueryError> {
    if is_name(name) {
        Ok(())
    } else if name.is_empty() {
        Err(QueryError::new(param, "has an empty attribute name"))
    } else {
        Err(QueryError::new(param, format!("`{}` is not a valid attribute name", shown(name))))
    }
}

/// A dotted attribute path (`author.name`).
pub(super) fn check_path(path: &str, param: &str) -> Result<(), QueryError> {
    if path.split('.').count() > MAX_NESTING {
        return Err(QueryError::new(param, format!("`{}` is nested deeper than {MAX_NESTING} levels", shown(path))));
    }
    path.split('.').try_for_each(|segment| check_name(segment, param))
}

// --- filters ---------------------------------------------------------------------------------

pub(super) fn parse_filter(node: &Node, prefix: &[String], param: &str) -> Result<Filter, QueryError> {
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

pub(super) fn all_of(mut parts: Vec<Filter>) -> Filter {
    if parts.len() == 1
        && let Some(only) = parts.pop()
    {
        return only;
    }
    Filter::And(parts)
}

pub(super) fn operand(value: &Option<String>) -> FilterValue {
    match value {
        Some(text) => FilterValue::Text(text.clone()),
        None => FilterValue::Null,
    }
}

/// `filters[slug]=x` is `$eq`; repeated, `$in`.
pub(super) fn implicit_condition(prefix: &[String], values: &[Option<String>]) -> Filter {
    match values {
        [one] => Filter::Field { path: prefix.to_vec(), op: Op::Eq, value: operand(one) },
        many => Filter::Field {
            path: prefix.to_vec(),
            op: Op::In,
            value: FilterValue::List(many.iter().map(operand).collect()),
        },
    }
}

pub(super) fn operator_value(op: Op, node: &Node, param: &str) -> Result<FilterValue, QueryError> {
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

pub(super) fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "true" | "t" | "1" => Some(true),
        "false" | "f" | "0" => Some(false),
        _ => None,
    }
}

// --- populate --------------------------------------------------------------------------------

pub(super) fn parse_populate(node: &Node, param: &str, top: bool) -> Result<Populate, QueryError> {
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

pub(super) fn insert_populate_path(map: &mut BTreeMap<String, PopulateNode>, path: &[&str]) {
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
pub(super) fn parse_populate_node(node: &Node, param: &str) -> Result<Option<PopulateNode>, QueryError> {
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
pub(super) fn parse_on(node: &Node, param: &str) -> Result<BTreeMap<String, PopulateNode>, QueryError> {
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

pub(super) fn parse_fields(node: &Node, param: &str) -> Result<Option<Vec<String>>, QueryError> {
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

pub(super) fn parse_sort(node: &Node, param: &str) -> Result<Vec<(String, SortDir)>, QueryError> {
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

pub(super) fn sort_item(item: &str, param: &str) -> Result<(String, SortDir), QueryError> {
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
pub(super) fn sort_object(
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

pub(super) fn sort_dir(text: &str, param: &str) -> Result<SortDir, QueryError> {
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

pub(super) fn parse_pagination(node: &Node) -> Result<Pagination, QueryError> {
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

pub(super) fn clamp_size(size: i64) -> u64 {
    u64::try_from(size).unwrap_or(1).clamp(1, MAX_PAGE_SIZE)
}

pub(super) fn parse_locale(node: &Node) -> Result<Option<String>, QueryError> {
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
