//! The query module's tests: parsing, evaluation, sorting, pagination and shaping.

use super::filter::*;
use super::parse::*;
use super::shape::*;
use super::sort::*;
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
        Filter::Or(vec![field(&["author", "name"], Op::Eq, text("Ann")), field(&["author", "id"], Op::Eq, text("3"))])
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
    let mut docs = vec![json!({"v": "b"}), json!({"v": 10}), json!({"v": 9}), json!({"v": "a"}), json!({"v": false})];
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
    assert_eq!(serde_json::to_value(&meta).unwrap(), json!({"page": 2, "pageSize": 10, "pageCount": 3, "total": 25}));
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
    assert_eq!(attributes["seo"], json!({"id": 10, "metaTitle": "Welcome"}), "the component's media is not populated");
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
    assert_eq!(shaped["attributes"]["logo"], json!({"data": {"id": 7, "attributes": {"url": "/uploads/logo.svg"}}}));
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
    "[", "]", "$", "=", "&", "%", ".", ",", ":", "*", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c",
    "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z",
    "é", "日", "🎰", "ß",
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
